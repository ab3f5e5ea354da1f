// The sync-message decoder of the co-simulation (model/cosim/rtl_ports.hpp): what it
// accepts encodes back to the same bits, and bits no sync message has are refused, so a
// wrong RTL flit cannot pass for a different message (found by tb/fuzz/fuzz_flit).
#include <catch2/catch.hpp>

#include "model/cosim/rtl_ports.hpp"

using namespace meshsync;
namespace ff = meshsync::flit_format;

namespace {
std::uint32_t sync_bits(bool tail, SyncType t, int gid, Coord dest) {
  return ff::kHead.put(1) | ff::kTail.put(tail) | ff::kSync.put(1) | ff::kType.put(static_cast<std::uint32_t>(t)) |
         ff::kGid.put(static_cast<std::uint32_t>(gid)) | ff::kData.put(kLocalSlot) |
         ff::kDestY.put(static_cast<std::uint32_t>(dest.y)) | ff::kDestX.put(static_cast<std::uint32_t>(dest.x));
}
}  // namespace

TEST_CASE("flit decode: a sync message decodes to the message that encodes to its bits", "[flit][unit]") {
  const MeshShape mesh{8, 4};
  const std::uint32_t bits = sync_bits(true, SyncType::Release, 7, {5, 3});
  const Flit f = rtl::decode_sync(bits, mesh, mesh.id({1, 1}));
  CHECK(f.stype == SyncType::Release);
  CHECK(f.gid == 7);
  CHECK(f.dest == mesh.id({5, 3}));
  CHECK(rtl::encode_flit(f, mesh) == bits);
}

TEST_CASE("flit decode: bits no sync message has are refused, not turned into another", "[flit][unit]") {
  const MeshShape mesh{8, 4};
  // (9,0) is outside 8x4; read as y*8+x it would be node (1,1).
  CHECK_THROWS_AS(rtl::decode_sync(sync_bits(true, SyncType::Arrive, 1, {9, 0}), mesh, 0), rtl::FlitFormatError);
  CHECK_THROWS_AS(rtl::decode_sync(sync_bits(true, SyncType::Arrive, 1, {0, 4}), mesh, 0), rtl::FlitFormatError);
}

TEST_CASE("flit decode: a sync head without its tail bit heads a reduction message", "[flit][unit][reduction]") {
  const MeshShape mesh{8, 4};
  const std::uint32_t bits = sync_bits(false, SyncType::Arrive, 1, {2, 2});
  const Flit f = rtl::decode_sync(bits, mesh, 0);
  CHECK(f.head);
  CHECK_FALSE(f.tail);
  CHECK(rtl::encode_flit(f, mesh) == bits);
}

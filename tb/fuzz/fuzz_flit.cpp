// The 32-bit hardware flit (model/core/flit_format.hpp): every word the RTL can put on a
// wire, read field by field and packed again. Input: little-endian 32-bit words.
//
// Invariants:
// - each field's get and put are inverse on the field's bits, and a field never reaches
//   outside them;
// - the fields of a sync message, of a body/tail flit and of a worm address flit are
//   disjoint, and for the first two cover the whole word;
// - a sync word the decoder accepts encodes back to the same word (decode_sync loses
//   nothing), and the decoder refuses a word no sync message has;
// - describe_flit prints any word.
#include <array>
#include <cstring>

#include "fuzz_check.hpp"
#include "model/cosim/rtl_ports.hpp"

using namespace meshsync;
namespace ff = meshsync::flit_format;

namespace {

std::string hex(std::uint32_t w) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%08x", w);
  return s;
}

template <std::size_t N>
void check_layout(const std::array<ff::Field, N>& fields, std::uint32_t w, bool covers, const char* kind) {
  std::uint32_t used = 0, packed = 0;
  for (const ff::Field& f : fields) {
    const std::uint32_t bits = f.mask() << f.lsb;
    MESHSYNC_FUZZ_CHECK((used & bits) == 0, std::string(kind) + ": fields overlap");
    used |= bits;
    MESHSYNC_FUZZ_CHECK(f.get(w) <= f.mask(), hex(w));
    MESHSYNC_FUZZ_CHECK(f.put(f.get(w)) == (w & bits), hex(w));
    MESHSYNC_FUZZ_CHECK(f.get(f.put(f.get(w))) == f.get(w), hex(w));
    // Bits beyond the width are dropped, never moved into a neighbour.
    MESHSYNC_FUZZ_CHECK((f.put(w) & ~bits) == 0, hex(w));
    packed |= f.put(f.get(w));
  }
  if (covers) {
    MESHSYNC_FUZZ_CHECK(used == ~0u, std::string(kind) + ": fields leave bits unnamed");
    MESHSYNC_FUZZ_CHECK(packed == w, std::string(kind) + " " + hex(w));
  }
}

const std::array<ff::Field, 9> kSyncFields{ff::kHead, ff::kTail,  ff::kSync,  ff::kRoute, ff::kType,
                                           ff::kGid,  ff::kData, ff::kDestY, ff::kDestX};
const std::array<ff::Field, 3> kBodyFields{ff::kHead, ff::kTail, ff::kPayload};
const std::array<ff::Field, 9> kAddressFields{ff::kHead,  ff::kTail, ff::kSync,  ff::kRoute, ff::kMcast,
                                              ff::kBase,  ff::kMore, ff::kDestY, ff::kDestX};

// The largest mesh the format addresses: every destination field value is a node.
const MeshShape kFullMesh{ff::kMaxMeshSide, ff::kMaxMeshSide};

void check_word(std::uint32_t w, const MeshShape& mesh, NodeId self) {
  check_layout(kSyncFields, w, true, "sync message");
  check_layout(kBodyFields, w, true, "body flit");
  check_layout(kAddressFields, w, false, "address flit");
  (void)rtl::describe_flit(w);

  if (!ff::kHead.get(w)) {
    // A body or tail flit: flags and one data word, nothing else.
    Flit f;
    f.head = false;
    f.tail = ff::kTail.get(w);
    f.payload = ff::kPayload.get(w);
    MESHSYNC_FUZZ_CHECK(rtl::encode_flit(f, mesh) == w, hex(w));
    return;
  }
  if (!rtl::is_sync_head(w)) return;
  Flit f;
  try {
    f = rtl::decode_sync(w, mesh, self);
  } catch (const rtl::FlitFormatError&) {
    // Refused: it must be a word that no sync message on this mesh has.
    const Coord dest{static_cast<int>(ff::kDestX.get(w)), static_cast<int>(ff::kDestY.get(w))};
    MESHSYNC_FUZZ_CHECK(!mesh.contains(dest), "refused " + hex(w));
    return;
  }
  MESHSYNC_FUZZ_CHECK(f.sync && f.head && f.tail == static_cast<bool>(ff::kTail.get(w)) && f.src == self, hex(w));
  MESHSYNC_FUZZ_CHECK(mesh.contains(mesh.coord(f.dest)), hex(w));
  MESHSYNC_FUZZ_CHECK(rtl::encode_flit(f, mesh) == w, hex(w) + " re-encoded as " + hex(rtl::encode_flit(f, mesh)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first two bytes choose the mesh (1..128 per side) the decoder works on, so that
  // destinations outside it occur; the words follow.
  const MeshShape mesh{1 + data[0] % ff::kMaxMeshSide, 1 + data[1] % ff::kMaxMeshSide};
  for (std::size_t i = 2; i + 4 <= size; i += 4) {
    std::uint32_t w;
    std::memcpy(&w, data + i, 4);
    const NodeId self = static_cast<NodeId>(w % static_cast<std::uint32_t>(mesh.nodes()));
    check_word(w, mesh, self);
    check_word(w, kFullMesh, self);
  }
  return 0;
}

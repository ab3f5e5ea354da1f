// The malformed reduction messages (docs/reduction-hardware.md, section 6) that a router
// holding a member register for `gid`, whose child `child` is slot 0, must refuse. Made
// here, not by an NI, so they can break the format. The co-simulation sends them through
// a mesh (tb/cosim), the single-router tests into one router (tb/rtl).
#pragma once

#include <cstdint>
#include <vector>

#include "model/core/flit.hpp"
#include "model/core/reduction_message.hpp"

namespace meshsync::test {

struct MalformedReduction {
  const char* what;  // the model's words for it
  bool from_child;   // sent by the child, else by the router's own node
  std::vector<Flit> flits;
};

// A well-made reduction message of `gid` from `from` to `self` (every word 0x12345678),
// for a test to break.
inline std::vector<Flit> reduction_message_to(NodeId self, std::uint8_t gid, SyncType t, NodeId from,
                                              std::uint8_t data, const ReductionDescriptor& d) {
  return make_reduction_message(make_sync(t, gid, from, self, Route::XY, data), d,
                                std::vector<std::uint32_t>(d.words(), 0x12345678u));
}

inline std::vector<MalformedReduction> malformed_reductions(std::uint8_t gid, NodeId self, NodeId child) {
  const ReductionDescriptor two{ReduceOp::Sum, ElementType::Int32, true, 2};
  const auto message = [&](SyncType t, NodeId from, std::uint8_t data, const ReductionDescriptor& d) {
    return reduction_message_to(self, gid, t, from, data, d);
  };
  std::vector<MalformedReduction> cases;
  {
    auto m = message(SyncType::Arrive, child, 0, two);
    m[1].payload = 7;  // operation 7
    cases.push_back({"a descriptor that names no operation of its type", true, m});
  }
  cases.push_back({"a descriptor that names no operation of its type", true,  // (made, not unpacked)
                   message(SyncType::Arrive, child, 0, ReductionDescriptor{ReduceOp::Xor, ElementType::Float32, true, 2})});
  {
    auto m = message(SyncType::Arrive, child, 0, two);
    m[1].payload |= 1u << 25;  // a bit above the count
    cases.push_back({"a descriptor that names no operation of its type", true, m});
  }
  {
    auto m = message(SyncType::Arrive, child, 0, two);
    m[3].tail = true;  // 6 flits, the tail at flit 3
    m.resize(4);
    cases.push_back({"a reduction message's tail at flit 3", true, m});
  }
  {
    auto m = message(SyncType::Arrive, child, 0, two);
    m[5].tail = false;  // no tail where the descriptor puts it
    cases.push_back({"a reduction message's tail at flit 5", true, m});
  }
  cases.push_back({"names no child slot", true, message(SyncType::Arrive, child, 7, two)});
  cases.push_back({"more than the 4 a lane holds", true,
                   message(SyncType::Arrive, child, 0, ReductionDescriptor{ReduceOp::Sum, ElementType::Int32, true, 5})});
  // The root's own release carries nothing: the result is in its lane 4 already.
  cases.push_back({"a release carries a vector where none was reduced", false, message(SyncType::Release, self, 0, two)});
  // A body flit with no head before it.
  cases.push_back({"no head before it", true, {message(SyncType::Arrive, child, 0, two)[2]}});
  return cases;
}

}  // namespace meshsync::test

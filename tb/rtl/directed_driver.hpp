// The directed tests' driver (test_directed.cpp, test_protocol_errors.cpp): one router
// in lockstep with the C++ core, cycle by cycle, its downstream neighbours returning
// credits, and the decoded fields of an output flit.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "lockstep.hpp"

namespace meshsync::rtl::directed {

constexpr int kLocal = 0, kPlusX = 1, kMinusX = 2, kPlusY = 3, kMinusY = 4;

class Driver {
 public:
  explicit Driver(const std::string& config, Coord where = Coord{3, 4})
      : ls_(make_rtl_router(config), where) {}

  Lockstep& ls() { return ls_; }
  std::uint64_t now() const { return ls_.cycle(); }
  NodeId node(int x, int y) const { return ls_.mesh().id(Coord{x, y}); }
  NodeId self() const { return ls_.self(); }
  std::uint32_t trn() const { return ls_.config().timing.trn; }
  std::uint32_t trm() const { return ls_.config().timing.trm; }

  // One cycle: the model's step, then `s` (arriving next cycle); returns the RTL's outputs
  // of this cycle, which the lockstep has compared with the model's.
  const RtlOutputs& cycle(const Stimulus& s = {}) {
    ls_.step_model();
    Stimulus in = s;
    // The downstream routers free every flit two cycles after it left (unless a test
    // manages credits itself), one credit per port and VC and cycle.
    for (int p = 1; p < kPorts && auto_credits_; ++p)
      for (int v = 0; v < kRtlVcs; ++v)
        if (owed_[p][v] > 0 && owed_at_[p][v] <= ls_.cycle()) {
          in.credit[p][v] = true;
          --owed_[p][v];
        }
    const bool ok = ls_.apply(in);
    INFO("lockstep: " << ls_.mismatch());
    REQUIRE(ok);
    const RtlOutputs& o = ls_.rtl_outputs();
    for (int p = 1; p < kPorts; ++p)
      if (o.out_valid[p]) {
        ++owed_[p][o.out_vc[p]];
        owed_at_[p][o.out_vc[p]] = ls_.cycle() + 1;
      }
    return o;
  }
  void manual_credits() { auto_credits_ = false; }
  // The model's words for the protocol violation it raised (empty before one).
  const std::string& violation() const { return ls_.violation(); }
  // Stimulus-free cycles until error_o rises (at most `cycles`); the lockstep requires the
  // model to throw in that same cycle.
  bool error_within(int cycles) {
    for (int c = 0; c < cycles; ++c) {
      ls_.step_model();
      const bool ok = ls_.apply(Stimulus{});
      INFO("lockstep: " << ls_.mismatch());
      REQUIRE(ok);
      if (ls_.rtl_outputs().error) return true;
    }
    return false;
  }
  // Idle cycles until `c` (the cycle whose outputs are returned), stimulus-free.
  const RtlOutputs& until(std::uint64_t c) {
    while (now() < c) cycle();
    return cycle();
  }

  bool program(const BarrierRegisterSetup& setup) {
    Stimulus s;
    s.reg.op = RegOp::Program;
    s.reg.setup = setup;
    return cycle(s).reg_ok;
  }
  bool free(std::uint8_t gid) {
    Stimulus s;
    s.reg.op = RegOp::Free;
    s.reg.gid = gid;
    return cycle(s).reg_ok;
  }

 private:
  Lockstep ls_;
  bool auto_credits_ = true;
  int owed_[kPorts][kRtlVcs]{};
  std::uint64_t owed_at_[kPorts][kRtlVcs]{};
};

inline Flit worm_flit(NodeId dest, bool head, bool tail, std::uint32_t payload = 0) {
  Flit f;
  f.dest = dest;
  f.head = head;
  f.tail = tail;
  f.payload = payload;
  return f;
}

// Decoded output fields.
inline int dest_x(std::uint32_t b) { return static_cast<int>(flit_format::kDestX.get(b)); }
inline int dest_y(std::uint32_t b) { return static_cast<int>(flit_format::kDestY.get(b)); }
inline int gid_of(std::uint32_t b) { return static_cast<int>(flit_format::kGid.get(b)); }
inline int type_of(std::uint32_t b) { return static_cast<int>(flit_format::kType.get(b)); }
inline int data_of(std::uint32_t b) { return static_cast<int>(flit_format::kData.get(b)); }
inline bool sync_of(std::uint32_t b) { return flit_format::kSync.get(b); }
inline bool yx_of(std::uint32_t b) { return flit_format::kRoute.get(b); }

inline BarrierRegisterSetup leaf(std::uint8_t gid) {
  BarrierRegisterSetup s;
  s.gid = gid;  // a root with no children: its only arrival completes it
  return s;
}

}  // namespace meshsync::rtl::directed

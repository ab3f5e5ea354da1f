// The barrier unit of one router (RTL meshsync_barrier_unit), contract step 5, with the
// register file it owns (BarrierRegisterFile, RTL meshsync_barrier_regfile) and its
// software port: it takes one sync flit a cycle and pushes the batches it completes to
// the emitter (Emitter, step 6). Reduction messages (sync worms,
// docs/reduction-hardware.md) are stored flit by flit in their register's lanes and count
// as arrivals at their tails.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "barrier_register_file.hpp"
#include "../config.hpp"
#include "emitter.hpp"
#include "input_unit.hpp"
#include "ports.hpp"
#include "route_unit.hpp"

namespace meshsync {

class BarrierUnit {
 public:
  explicit BarrierUnit(const RouterParams& p)
      : regs_(p.barrier_registers),
        batches_(p.barrier_registers),
        max_children_(p.max_children),
        reduce_words_(p.reduce_words) {}

  // The words a lane holds, when this router's are not the configuration's (a lockstep
  // shadow of an RTL router, whose lanes are its build's: ReduceWords is a capacity).
  void set_reduce_words(std::uint32_t w) { reduce_words_ = w; }
  BarrierRegisterFile& registers() { return regs_; }
  const BarrierRegisterFile& registers() const { return regs_; }
  // The software's register port: program finds the group's entry or a free one (-1 when
  // none is free or `s` has more children than a register holds); free unprograms the
  // group's member entry (-1 when there is none). Each returns the register it wrote; a
  // write cancels the register's batch (the emitter's too: Emitter::cancel).
  int program(const BarrierRegisterSetup& s);
  int free(std::uint8_t gid);

  // Step 5: the input taken this cycle among `offering` (bit per input), round robin.
  int pick(unsigned offering) {
    const int i = round_robin_pick(offering, rr_);
    rr_ = static_cast<std::uint8_t>((i + 1) % kPorts);
    return i;
  }
  // Takes the flit at input `input`'s front (true: the input pops it), or updates the CS
  // entry of a setup/teardown passing through (false, the message stays). Also false if
  // a head's register is no longer a member: its message then goes on to the NI. Throws
  // std::logic_error("reduction protocol violation: ...") for a reduction message the
  // register cannot take (docs/reduction-hardware.md, "Errors"). A batch it completes is
  // pushed to `emitter`.
  bool take(BufferedFlit& b, int input, std::uint64_t c, const RouteUnit& route, Emitter& emitter);
  // Per register, its batch (read by the emitter); `loaded`: the emitter took register r's.
  const std::vector<Batch>& batches() const { return batches_; }
  void loaded(int r) { batches_[static_cast<std::size_t>(r)].pending = false; }

  // A reduction message is open whose head is not ready at c: the batch its tail creates
  // is due then, a delay the RTL counts down every cycle.
  bool counting(std::uint64_t c) const {
    for (const auto& vcs : incoming_)
      for (const Incoming& in : vcs)
        if (in.reg >= 0 && in.ready > c) return true;
    return false;
  }

 private:
  // A reduction message being stored, per input and sync VC: its register, the lane its
  // words go to (a child's slot, or 4) and the position of its next flit. A software write
  // to the register kills it; its remaining flits are then taken and dropped.
  struct Incoming {
    int reg = -1;  // -1: no message open
    bool live = true;
    bool release = false;
    std::uint8_t slot = kNoSlot;  // the head's data: its child slot (arrivals)
    std::uint32_t pos = 1;
    std::uint32_t flits = 0;  // from the descriptor
    std::uint64_t ready = 0;  // the head's: the batch it completes is due then
    // Its words' lane: the child's slot, or lane 4 for a release (the result).
    std::uint32_t lane() const { return release ? kLocalSlot : slot; }
  };
  void cancel_batch(int reg);
  void update_cs_path(const Flit& f, const RouteUnit& route);
  // A head of a member register: checks what it says against the epoch, and opens its
  // message when a vector follows.
  void take_head(int reg, const BufferedFlit& b, int input, const RouteUnit& route);
  bool take_body(const Flit& f, int input, std::uint64_t c, const RouteUnit& route, Emitter& emitter);
  // An arrival or release is whole: counts it, and creates the batch it completes.
  void complete(int reg, SyncType type, std::uint8_t slot, std::uint64_t ready, std::uint64_t c, const RouteUnit& route,
                Emitter& emitter);
  [[noreturn]] void violation(int reg, const RouteUnit& route, const std::string& what) const;

  BarrierRegisterFile regs_;
  std::vector<Batch> batches_;  // per barrier register
  std::uint32_t max_children_;
  std::uint32_t reduce_words_;
  std::array<std::array<Incoming, 2>, kMaxInputs> incoming_{};  // per input, sync VCs 1 and 2
  std::uint8_t rr_ = 0;         // next input the unit favours
};

}  // namespace meshsync

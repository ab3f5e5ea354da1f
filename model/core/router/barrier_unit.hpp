// The barrier hardware of one router (RTL meshsync_barrier_regfile, meshsync_barrier_unit
// and meshsync_barrier_emitter): the register file with its software port, the unit that
// takes one sync message a cycle (contract step 5) and the emitter that sends one
// register's batch at a time (step 6).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../barrier_register.hpp"
#include "../config.hpp"
#include "input_unit.hpp"
#include "output_unit.hpp"
#include "ports.hpp"
#include "route_unit.hpp"

namespace meshsync {

// What the emitter offers in a cycle: per port, the index of a child's message, the local
// release, or nothing.
struct EmitterOffer {
  static constexpr int kNone = -1;
  static constexpr int kLocalRelease = -2;
  std::array<int, kPorts> message{kNone, kNone, kNone, kNone, kNone};
  unsigned ports = 0;  // bit per port with a message
};

class BarrierUnit {
 public:
  explicit BarrierUnit(const RouterParams& p)
      : regs_(p.barrier_registers), batches_(p.barrier_registers), max_children_(p.max_children) {}

  BarrierRegisterFile& registers() { return regs_; }
  const BarrierRegisterFile& registers() const { return regs_; }
  // The software's register port: program finds the group's entry or a free one (false
  // when none is free or `s` has more children than a register holds); free unprograms
  // the group's member entry (false when there is none). A write drops what the
  // register's batch still had to send.
  bool program(const BarrierRegisterSetup& s);
  bool free(std::uint8_t gid);

  // Step 5: the input taken this cycle among `offering` (bit per input), round robin.
  int pick(unsigned offering) {
    const int i = round_robin_pick(offering, rr_);
    rr_ = static_cast<std::uint8_t>((i + 1) % kPorts);
    return i;
  }
  // Takes the message at an input's front (true: the input pops it), or updates the CS
  // entry of a setup/teardown passing through (false, the message stays). Also false if
  // the message's register is no longer a member: it then goes on to the NI.
  bool take(BufferedFlit& b, std::uint64_t c, NodeId here);

  // Step 6: the emitter takes a due batch if it has none, and offers its messages on the
  // ports that have a credit for them.
  EmitterOffer offer(std::uint64_t c, const RouteUnit& route, const std::array<OutputUnit, kMaxOutputs>& outputs) {
    return pending_ == 0 ? EmitterOffer{} : offer_batch(c, route, outputs);
  }
  bool emitting() const { return emitter_.reg >= 0; }
  // The message offered on `port`; sent() once it is granted.
  const Flit& message(const EmitterOffer& offer, int port) const {
    const int k = offer.message[static_cast<std::size_t>(port)];
    return k == EmitterOffer::kLocalRelease ? emitter_.local_flit : emitter_.children[static_cast<std::size_t>(k)].first;
  }
  // The cycle's granted messages (bit per port) leave the batch; the emitter is free from
  // the next cycle once all have.
  void sent(const EmitterOffer& offer, unsigned granted_ports);

  bool idle() const { return pending_ == 0; }
  // The next cycle the unit has something to do from `c` on (kNever: nothing).
  std::uint64_t next_wake(std::uint64_t c) const { return pending_ == 0 ? kNever : next_batch(c); }
  void describe(const std::string& me, std::vector<std::string>& out) const;

 private:
  // A register's batch waiting for the emitter: created by the barrier unit, it may leave
  // from `due` on (the ready cycle of the message that completed it).
  struct Batch {
    bool pending = false;
    bool release = false;  // distribution (children + local); else the reduction message
    std::uint64_t due = 0;
  };
  // The one batch being sent. Messages are built from the register's fields when the
  // batch is selected; software writes to that register cancel it (contract).
  struct Emitter {
    int reg = -1;  // -1: idle
    std::vector<std::pair<Flit, std::int8_t>> children;  // releases (or the reduction message) and ports
    bool local = false;  // the local release, sent after every child's
    Flit local_flit;
    // Idle again; the message list keeps its storage for the next batch.
    void reset() {
      reg = -1;
      children.clear();
      local = false;
    }
  };
  EmitterOffer offer_batch(std::uint64_t c, const RouteUnit& route, const std::array<OutputUnit, kMaxOutputs>& outputs);
  void select_batch(std::uint64_t c, const RouteUnit& route);
  std::uint64_t next_batch(std::uint64_t c) const;
  void cancel_batch(int reg);
  void update_cs_path(const Flit& f);

  BarrierRegisterFile regs_;
  std::vector<Batch> batches_;  // per barrier register
  std::uint32_t max_children_;
  std::uint32_t pending_ = 0;   // batches pending, plus 1 while the emitter sends
  Emitter emitter_;
  std::uint8_t rr_ = 0;         // next input the unit favours
};

}  // namespace meshsync

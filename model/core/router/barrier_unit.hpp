// The barrier hardware of one router (RTL meshsync_barrier_regfile, meshsync_barrier_unit
// and meshsync_barrier_emitter): the register file with its software port, the unit that
// takes one sync flit a cycle (contract step 5) and the staged emitter (step 6): a FIFO
// of batches in creation order, one message staged per cycle into its port's slot.
// Reduction messages (sync worms, docs/reduction-hardware.md) are stored flit by flit in
// their register's lanes and count as arrivals at their tails; the emitter folds the
// children's vectors into the own one before it stages the message that carries the
// result, and streams a staged worm one flit a cycle from its slot.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../barrier_register.hpp"
#include "../config.hpp"
#include "input_unit.hpp"
#include "output_unit.hpp"
#include "ports.hpp"
#include "route_unit.hpp"

namespace meshsync {

// What the emitter offers in a cycle: per port, whether that port's slot is offered.
struct EmitterOffer {
  unsigned ports = 0;  // bit per port with a message
  bool folding = false;  // a reduction's fold took a step this cycle (progress, as a flit moving)
};

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
  // Takes the flit at input `input`'s front (true: the input pops it), or updates the CS
  // entry of a setup/teardown passing through (false, the message stays). Also false if
  // a head's register is no longer a member: its message then goes on to the NI. Throws
  // std::logic_error("reduction protocol violation: ...") for a reduction message the
  // register cannot take (docs/reduction-hardware.md, "Errors").
  bool take(BufferedFlit& b, int input, std::uint64_t c, const RouteUnit& route);

  // Step 6: the emitter takes the oldest batch if it holds none, offers its slots (on the
  // ports that have a credit, from the batch's due cycle) and stages one message.
  // `me` is the emitter's index among the switch's inputs (the owner it holds VCs as).
  EmitterOffer offer(std::uint64_t c, const RouteUnit& route, const std::array<OutputUnit, kMaxOutputs>& outputs,
                     int me) {
    return idle() ? EmitterOffer{} : offer_batch(c, route, outputs, me);
  }
  bool emitting() const { return emitter_.reg >= 0; }
  // The message offered on `port`; sent() once it is granted.
  const Flit& message(const EmitterOffer&, int port) const { return emitter_.slot[static_cast<std::size_t>(port)]; }
  // The cycle's granted slots (bit per port) are empty from the next cycle; the emitter is
  // free from the next cycle once the batch's last message has left.
  void sent(const EmitterOffer& offer, unsigned granted_ports);

  // Nothing queued (cancelled batches included, until the emitter discards them) or held.
  bool idle() const { return fifo_.empty() && emitter_.reg < 0; }
  // A reduction message is open whose head is not ready at c: the batch its tail creates
  // is due then, a delay the RTL counts down every cycle.
  bool counting(std::uint64_t c) const {
    for (const auto& vcs : incoming_)
      for (const Incoming& in : vcs)
        if (in.reg >= 0 && in.ready > c) return true;
    return false;
  }
  // The next cycle the unit has something to do from `c` on (kNever: nothing).
  std::uint64_t next_wake(std::uint64_t c) const;
  void describe(const std::string& me, std::vector<std::string>& out) const;

 private:
  // A register's batch: created by the barrier unit, it may leave from `due` on (the
  // ready cycle of the message that completed it). Pending until the emitter takes it.
  struct Batch {
    bool pending = false;
    std::uint64_t due = 0;
  };
  // A FIFO entry: a batch in creation order. A software write to its register kills it;
  // the emitter discards a killed entry when it reaches the head (taking nothing then).
  struct Queued {
    int reg = 0;
    bool release = false;  // distribution (children + local); else the reduction message
    bool live = true;
    std::uint64_t created = 0;  // taken from the next cycle on
  };
  // The batch being staged and sent. Messages are built from the register's fields in the
  // cycle they are staged; software writes to that register cancel the batch.
  struct Emitter {
    int reg = -1;  // -1: idle
    bool release = false;
    std::uint32_t next = 0;  // next child to stage (release batch)
    bool staged_all = false;
    unsigned full = 0;  // bit per port: its slot holds a message
    std::array<Flit, kPorts> slot{};  // the flit each slot offers
    // A batch that carries a vector: its descriptor, the fold's cycles still to come before
    // the first message is staged, and per port the staged worm's head and the position of
    // the flit its slot offers.
    bool vector = false;
    ReductionDescriptor desc;
    std::uint32_t fold_left = 0;
    std::array<Flit, kPorts> head{};
    std::array<std::uint32_t, kPorts> pos{};
    void reset() {
      reg = -1;
      full = 0;
      fold_left = 0;
    }
  };
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
  void stage(const RouteUnit& route);
  EmitterOffer offer_batch(std::uint64_t c, const RouteUnit& route, const std::array<OutputUnit, kMaxOutputs>& outputs,
                           int me);
  void take_batch(const Queued& q);
  void cancel_batch(int reg);
  void update_cs_path(const Flit& f);
  // A head of a member register: checks what it says against the epoch, and opens its
  // message when a vector follows.
  void take_head(int reg, const BufferedFlit& b, int input, const RouteUnit& route);
  bool take_body(const Flit& f, int input, std::uint64_t c, const RouteUnit& route);
  // An arrival or release is whole: counts it, and creates the batch it completes.
  void complete(int reg, SyncType type, std::uint8_t slot, std::uint64_t ready, std::uint64_t c, const RouteUnit& route);
  // Lane k of a register, at least `words` long.
  std::uint32_t* lane(int reg, std::uint32_t k, std::uint32_t words);
  [[noreturn]] void violation(int reg, const RouteUnit& route, const std::string& what) const;

  BarrierRegisterFile regs_;
  std::vector<Batch> batches_;  // per barrier register
  std::uint32_t max_children_;
  std::uint32_t reduce_words_;
  std::array<std::array<Incoming, 2>, kMaxInputs> incoming_{};  // per input, sync VCs 1 and 2
  std::vector<Queued> fifo_;    // oldest first; at most barrier_registers entries
  Emitter emitter_;
  std::uint8_t rr_ = 0;         // next input the unit favours
};

}  // namespace meshsync

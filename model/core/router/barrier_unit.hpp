// The barrier hardware of one router (RTL meshsync_barrier_regfile, meshsync_barrier_unit
// and meshsync_barrier_emitter): the register file with its software port, the unit that
// takes one sync message a cycle (contract step 5) and the staged emitter (step 6): a
// FIFO of batches in creation order, one message staged per cycle into its port's slot.
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

  // Step 6: the emitter takes the oldest batch if it holds none, offers its slots (on the
  // ports that have a credit, from the batch's due cycle) and stages one message.
  EmitterOffer offer(std::uint64_t c, const RouteUnit& route, const std::array<OutputUnit, kMaxOutputs>& outputs) {
    return idle() ? EmitterOffer{} : offer_batch(c, route, outputs);
  }
  bool emitting() const { return emitter_.reg >= 0; }
  // The message offered on `port`; sent() once it is granted.
  const Flit& message(const EmitterOffer&, int port) const { return emitter_.slot[static_cast<std::size_t>(port)]; }
  // The cycle's granted slots (bit per port) are empty from the next cycle; the emitter is
  // free from the next cycle once the batch's last message has left.
  void sent(const EmitterOffer& offer, unsigned granted_ports);

  // Nothing queued (cancelled batches included, until the emitter discards them) or held.
  bool idle() const { return fifo_.empty() && emitter_.reg < 0; }
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
    std::array<Flit, kPorts> slot{};
    void reset() {
      reg = -1;
      full = 0;
    }
  };
  void stage(const RouteUnit& route);
  EmitterOffer offer_batch(std::uint64_t c, const RouteUnit& route, const std::array<OutputUnit, kMaxOutputs>& outputs);
  void cancel_batch(int reg);
  void update_cs_path(const Flit& f);

  BarrierRegisterFile regs_;
  std::vector<Batch> batches_;  // per barrier register
  std::uint32_t max_children_;
  std::vector<Queued> fifo_;    // oldest first; at most barrier_registers entries
  Emitter emitter_;
  std::uint8_t rr_ = 0;         // next input the unit favours
};

}  // namespace meshsync

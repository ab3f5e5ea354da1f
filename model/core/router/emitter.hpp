// The barrier emitter of one router (RTL meshsync_barrier_emitter, with its
// meshsync_emitter_read_mux and meshsync_reduction_alu), contract step 6: a FIFO of the
// batches the barrier unit created, in creation order; the batch taken when idle, a
// reduction's fold, one message staged per cycle into its port's slot, and from the
// batch's due cycle the full slots offered to the switch. A slot that carries a vector
// (a reduction message, docs/reduction-hardware.md) streams its worm one flit a cycle.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../flit.hpp"
#include "barrier_register_file.hpp"
#include "output_unit.hpp"
#include "ports.hpp"
#include "route_unit.hpp"

namespace meshsync {

// A register's batch as the barrier unit holds it (the RTL's pending bit and countdown):
// created by the unit, it may leave from `due` on (the ready cycle of the message that
// completed it). Pending until the emitter takes it (the RTL's batch_load_o).
struct Batch {
  bool pending = false;
  std::uint64_t due = 0;
};

// What the emitter offers in a cycle: per port, whether that port's slot is offered.
struct EmitterOffer {
  unsigned ports = 0;    // bit per port with a message
  bool folding = false;  // a reduction's fold took a step this cycle (progress, as a flit moving)
  int loaded = -1;       // the register whose batch the emitter took this cycle (its pending bit clears)
};

class Emitter {
 public:
  // `registers`: the FIFO holds one batch per register at most.
  explicit Emitter(std::uint32_t registers) : capacity_(registers) {}

  // The barrier unit's push: register `reg`'s batch, created in cycle `created` (taken
  // from the next cycle on); `release`: a distribution, else the reduction message.
  void push(int reg, bool release, std::uint64_t created) { fifo_.push_back(Queued{reg, release, true, created}); }
  // The FIFO is full (only killed entries can fill it while a batch is held).
  bool full() const { return fifo_.size() >= capacity_ && active_.reg >= 0; }
  // The batch being sent is register `reg`'s (the RTL's emitting_o).
  bool holds(int reg) const { return active_.reg == reg; }
  // A software write to register `reg` (the register file's written_o): its queued batch is
  // killed and what is still to be sent of it dropped.
  void cancel(int reg);

  // Step 6: takes the oldest batch if it holds none, offers its slots (on the ports that
  // have a credit, from the batch's due cycle) and stages one message. `batches`: the
  // barrier unit's, per register; `me`: the emitter's index among the switch's inputs (the
  // owner it holds VCs as).
  EmitterOffer offer(std::uint64_t c, const RouteUnit& route, BarrierRegisterFile& regs, const std::vector<Batch>& batches,
                     const std::array<OutputUnit, kMaxOutputs>& outputs, int me) {
    return idle() ? EmitterOffer{} : offer_batch(c, route, regs, batches, outputs, me);
  }
  bool emitting() const { return active_.reg >= 0; }
  // The message offered on `port`; sent() once it is granted.
  const Flit& message(const EmitterOffer&, int port) const { return active_.slot[static_cast<std::size_t>(port)]; }
  // The cycle's granted slots (bit per port) are empty from the next cycle; the emitter is
  // free from the next cycle once the batch's last message has left.
  void sent(const EmitterOffer& offer, unsigned granted_ports, BarrierRegisterFile& regs);

  // Nothing queued (cancelled batches included, until the emitter discards them) or held.
  bool idle() const { return fifo_.empty() && active_.reg < 0; }
  // The next cycle the emitter has something to do from `c` on (kNever: nothing).
  std::uint64_t next_wake(std::uint64_t c, const std::vector<Batch>& batches) const;
  void describe(const std::string& me, std::vector<std::string>& out) const;

 private:
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
  struct Active {
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
  EmitterOffer offer_batch(std::uint64_t c, const RouteUnit& route, BarrierRegisterFile& regs,
                           const std::vector<Batch>& batches, const std::array<OutputUnit, kMaxOutputs>& outputs, int me);
  void take_batch(const Queued& q, BarrierRegisterFile& regs);
  void stage(const RouteUnit& route, const BarrierRegisterFile& regs);

  std::uint32_t capacity_;
  std::vector<Queued> fifo_;  // oldest first; at most `capacity_` entries
  Active active_;
};

}  // namespace meshsync

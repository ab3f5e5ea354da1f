// The router's behaviour, in plain C++: the single description that the SystemC mesh
// clocks, the tests exercise and the RTL must match cycle for cycle. The cycle contract
// (pipeline, credits, arbitration order) is written in docs/microarchitecture.md; each
// step() below is one cycle of it, calling the units in router/ in the contract's order.
// Each unit is one RTL module (docs/microarchitecture.md, "Units").
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "router/barrier_register_file.hpp"
#include "config.hpp"
#include "flit.hpp"
#include "flit_fifo.hpp"
#include "injection_channel.hpp"
#include "router/barrier_unit.hpp"
#include "router/crossbar.hpp"
#include "router/emitter.hpp"
#include "router/input_unit.hpp"
#include "router/output_unit.hpp"
#include "router/ports.hpp"
#include "router/route_unit.hpp"
#include "router/router_links.hpp"
#include "router/switch_allocator.hpp"
#include "router/tree_claim.hpp"

namespace meshsync {

// Something due at a node in a cycle; ordered for min-heaps, ties by node id so that
// every run visits nodes in the same order.
struct NodeEvent {
  std::uint64_t cycle;
  NodeId node;
  bool operator>(const NodeEvent& o) const {
    return cycle != o.cycle ? cycle > o.cycle : node > o.node;
  }
};

class RouterCore {
 public:
  // `coords` maps every node id to its coordinates (shared by all routers).
  RouterCore(NodeId id, Coord where, const NetworkConfig& cfg, const Coord* coords);

  NodeId id() const { return route_.id(); }
  Coord coord() const { return route_.here(); }
  BarrierRegisterFile& registers() { return barrier_.registers(); }
  const BarrierRegisterFile& registers() const { return barrier_.registers(); }
  // The software's register port: program finds the group's entry or a free one (false
  // when none is free or `s` has more children than a register holds); free unprograms
  // the group's member entry (false when there is none).
  bool program_register(const BarrierRegisterSetup& s) { return written(barrier_.program(s)); }
  bool free_register(std::uint8_t gid) { return written(barrier_.free(gid)); }

  // The network interface's injection channel `channel` (0..ni_ports-1): flits enter
  // the channel's input no earlier than `cycle`, one per cycle, in order.
  void inject(const Flit& f, std::uint64_t cycle, int channel = 0);
  // A flit leaving a neighbour: it is in our input buffer from `arrival` on. Returns
  // the first cycle it may leave again (the owner schedules us then).
  std::uint64_t receive(Port in, const Flit& f, std::uint64_t arrival) {
    return receive_at(index(in), f, arrival);
  }
  // A flit from injection channel `channel` in its input buffer from `arrival` on, as
  // the channel would put it there (a bench that plays the NI: the RTL lockstep).
  std::uint64_t receive_injected(int channel, const Flit& f, std::uint64_t arrival) {
    check_channel(channel, f);
    return receive_at(input_of_channel(channel), f, arrival);
  }
  // A credit for our output `out`, virtual channel `vc`, usable from `cycle` on.
  void return_credit(Port out, int vc, std::uint64_t cycle) {
    credit_returns_.push({cycle, static_cast<std::uint8_t>(index(out)),
                          static_cast<std::uint8_t>(vc)});
  }

  // One clock cycle. Returns true if any flit moved.
  bool step(std::uint64_t cycle, RouterLinks& links);
  // The next cycle at which step() has something to do, or kNever.
  std::uint64_t next_wake(std::uint64_t cycle) const;
  bool idle() const;
  // Lanes of `words` words instead of the configuration's (BarrierUnit::set_reduce_words).
  void set_reduce_words(std::uint32_t words) { barrier_.set_reduce_words(words); }
  // Idle at the start of cycle c as the RTL's idle_o says (rtl/meshsync_router.sv): also
  // no reduction message open whose head's delay still runs (the RTL counts it down).
  bool idle(std::uint64_t c) const { return idle() && !barrier_.counting(c); }
  // A sync message is buffered here, waits in a barrier register or at the NI's
  // injection channel (background load keeps routers busy; barriers wait for these).
  bool holds_sync() const;

  // Lines describing every buffered flit, for deadlock reports.
  void describe_stuck(std::vector<std::string>& out, const MeshShape& mesh) const;

  // Credits this router holds for output `p`, VC `vc` (tests and waveforms).
  std::uint32_t credits(Port p, int vc) const { return out_[static_cast<std::size_t>(index(p))].credits(vc); }
  // The credit counters as the hardware holds them in `cycle`, per port (index) and VC:
  // returns that have arrived count even if this router has not run since.
  using CreditCounts = std::array<std::uint32_t, kPorts * kMaxVcs>;  // port * kMaxVcs + vc
  CreditCounts credits_at(std::uint64_t cycle) const;
  std::size_t buffered(Port p, int vc) const { return input(index(p)).size(vc); }
  // Flits in the input buffer of injection channel `channel`, VC `vc`.
  std::size_t buffered_injected(int channel, int vc) const { return input(input_of_channel(channel)).size(vc); }
  // Inputs: the five ports, then injection channels 1..3 of an all-port NI.
  int inputs() const { return static_cast<int>(in_.size()); }

  std::uint64_t scheduled_at = kNever;  // owned by NetworkCore's scheduler

 private:
  struct CreditReturn {
    std::uint64_t cycle = 0;
    std::uint8_t port = 0;
    std::uint8_t vc = 0;
  };
  // Every input's request of one cycle (step 4), as the barrier unit and the switch
  // allocator read them.
  struct Requests {
    std::array<std::int8_t, kMaxInputs> vc{};
    std::array<std::int8_t, kMaxInputs> out_vc{};  // the VC taken at the output
    std::array<std::uint16_t, kMaxInputs> wants{};      // per input: the outputs it asks for
    std::array<std::uint16_t, kMaxOutputs> by_output{};  // per output: the requesters
    unsigned asking = 0;   // outputs with a requester
    unsigned barrier = 0;  // inputs offering their message to the barrier unit
    unsigned drop = 0;     // inputs discarding a dropped tree worm's flit
    unsigned several = 0;  // inputs asking for more than one output at once
    // A matching switch allocator: per input and output, the VC whose flit goes there if
    // the input wins it, and that flit's VC at the output.
    // (Written only where `wants` has the bit: left uninitialised, as the separable
    // allocator never reads them.)
    std::array<std::array<std::int8_t, kMaxOutputs>, kMaxInputs> vc_for;
    std::array<std::array<std::int8_t, kMaxOutputs>, kMaxInputs> out_vc_for;
  };
  // The matching allocators' requests: every VC of an input that can move, one per output.
  void gather_requests(std::uint64_t c, int i, Requests& r) const;

  // The register file's write of register `r` (-1: none) cancels the emitter's batch of it.
  bool written(int r) {
    if (r >= 0) emitter_.cancel(r);
    return r >= 0;
  }
  InputUnit& input(int i) { return in_[static_cast<std::size_t>(i)]; }
  const InputUnit& input(int i) const { return in_[static_cast<std::size_t>(i)]; }
  ArrivalContext arrival_context() const { return {route_, timing_, barrier_.registers()}; }
  std::uint64_t receive_at(int input, const Flit& f, std::uint64_t arrival);

  // The contract's steps (docs/microarchitecture.md, "One cycle").
  void apply_credit_returns(std::uint64_t c);                                  // 1
  bool inject_from_channels(std::uint64_t c);                                  // 2
  void look_up_arrivals(std::uint64_t c);                                      // 3
  Requests arbitrate_inputs(std::uint64_t c) const;                            // 4
  void barrier_unit_takes(std::uint64_t c, const Requests& r, RouterLinks& links);  // 5
  // 7 and 8: the switch allocation among the inputs and the emitter's offer (6), and
  // the winners' flits leave through the crossbar.
  bool traverse(std::uint64_t c, Requests& r, const EmitterOffer& offer, RouterLinks& links);

  void send(int out, const Flit& f, std::uint64_t cycle, RouterLinks& links);
  void pop_input(int input, int vc, std::uint64_t cycle, RouterLinks& links);
  InjectionChannel& source(int channel) {
    return channel == 0 ? source_ : (*more_sources_)[static_cast<std::size_t>(channel - 1)];
  }
  const InjectionChannel& source(int channel) const {
    return const_cast<RouterCore*>(this)->source(channel);
  }
  int channels() const { return route_.all_port() ? 4 : 1; }
  // Throws std::logic_error for a channel that does not exist, or a sync message on a
  // channel other than 0 (channels 1-3 carry worms only: the barrier unit serves the
  // five ports).
  void check_channel(int channel, const Flit& f) const;
  // The unicast VC of input `i` a worm head from injection channel `ch` goes into (the
  // NI's VC allocation: one with room, round robin or the most room), or -1.
  int injection_lane(int i, int ch) const;
  // VC numbers in use (RouterParams::vcs()).
  int vcs() const { return kVcs + unicast_vcs_ - 1; }

  RouteUnit route_;
  Timing timing_;
  std::vector<InputUnit> in_;                   // per input
  std::array<OutputUnit, kMaxOutputs> out_{};  // per output (five without an all-port NI)
  TreeClaim tree_;
  BarrierUnit barrier_;
  Emitter emitter_;
  SwitchAllocator switch_;
  // Credits in flight back to us: never more than the downstream buffers hold.
  FlitFifo<CreditReturn> credit_returns_;
  InjectionChannel source_;  // injection channel 0
  std::unique_ptr<std::array<InjectionChannel, 3>> more_sources_;  // all-port: 1..3
  // Per injection channel, the unicast VC of the worm it is injecting and the next VC
  // the round robin tries.
  std::array<std::uint8_t, 4> injection_lane_{};
  std::array<std::uint8_t, 4> injection_next_{};
  std::uint8_t unicast_vcs_ = 1;
  bool most_credits_ = false;
  // Bit per input, so that a cycle visits only the inputs with work.
  std::uint16_t busy_inputs_ = 0;    // holding a flit
  std::uint16_t tree_inputs_ = 0;    // holding a tree worm's flit
  std::uint16_t lookup_inputs_ = 0;  // holding sync flits before their CAM lookup
};

}  // namespace meshsync

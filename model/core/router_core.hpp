// The router's behaviour, in plain C++: the single description that the SystemC mesh
// clocks, the tests exercise and the RTL must match cycle for cycle. The cycle contract
// (pipeline, credits, arbitration order) is written in docs/microarchitecture.md; each
// step() below is one cycle of it.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "barrier_register.hpp"
#include "config.hpp"
#include "flit.hpp"
#include "flit_fifo.hpp"
#include "injection_channel.hpp"
#include "snake.hpp"

namespace meshsync {

inline constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

// Something due at a node in a cycle; ordered for min-heaps, ties by node id so that
// every run visits nodes in the same order.
struct NodeEvent {
  std::uint64_t cycle;
  NodeId node;
  bool operator>(const NodeEvent& o) const {
    return cycle != o.cycle ? cycle > o.cycle : node > o.node;
  }
};

// Where a router's outputs go: the mesh (NetworkCore), or a bench that drives one router
// by its ports (the RTL lockstep checker).
class RouterLinks {
 public:
  virtual ~RouterLinks() = default;
  // A flit granted to output `port` in `cycle`. Local, or an all-port router's ejection
  // output (kPorts + input - 1): delivered to the NI in cycle + 1; otherwise in the
  // neighbour's input FIFO in cycle + 1 + tp.
  virtual void flit_out(NodeId from, int port, const Flit& f, std::uint64_t cycle) = 0;
  // A flit popped from non-Local input `port`, VC `vc`, in `cycle`: its credit goes back.
  virtual void credit_out(NodeId from, int port, int vc, std::uint64_t cycle) = 0;
  // A flit popped from injection channel `channel`'s input, VC `vc`, in `cycle` (the
  // RTL's inj_pop_o; the mesh's NI needs nothing back: it injects on room alone).
  virtual void injection_pop(NodeId /*from*/, int /*channel*/, int /*vc*/, std::uint64_t /*cycle*/) {}
  // A copy of tree worm `packet` that will not leave by `output` in `cycle`: the output's
  // tree VC was held by another worm (docs/tree-multicast.md).
  virtual void tree_copy_dropped(NodeId /*from*/, int /*output*/, std::uint64_t /*packet*/,
                                 std::uint64_t /*cycle*/) {}
};

class RouterCore {
 public:
  // `coords` maps every node id to its coordinates (shared by all routers).
  RouterCore(NodeId id, Coord where, const NetworkConfig& cfg, const Coord* coords);

  NodeId id() const { return id_; }
  Coord coord() const { return coord_; }
  BarrierRegisterFile& registers() { return regs_; }
  const BarrierRegisterFile& registers() const { return regs_; }
  // The software's register port: program finds the group's entry or a free one (false
  // when none is free or `s` has more children than a register holds); free unprograms
  // the group's member entry (false when there is none).
  bool program_register(const BarrierRegisterSetup& s);
  bool free_register(std::uint8_t gid);

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
  // A sync message is buffered here, waits in a barrier register or at the NI's
  // injection channel (background load keeps routers busy; barriers wait for these).
  bool holds_sync() const;

  // Lines describing every buffered flit, for deadlock reports.
  void describe_stuck(std::vector<std::string>& out, const MeshShape& mesh) const;

  // Credits this router holds for output `p`, VC `vc` (tests and waveforms).
  std::uint32_t credits(Port p, int vc) const { return credits_[index(p)][vc]; }
  // The credit counter as the hardware holds it in `cycle`: returns that have arrived
  // count even if this router has not run since.
  std::uint32_t credits_at(Port p, int vc, std::uint64_t cycle) const;
  std::size_t buffered(Port p, int vc) const { return in_[index(p)][vc].size(); }
  // Flits in the input buffer of injection channel `channel`, VC `vc`.
  std::size_t buffered_injected(int channel, int vc) const {
    return in_[static_cast<std::size_t>(input_of_channel(channel))][vc].size();
  }
  // Inputs: the five ports, then injection channels 1..3 of an all-port NI.
  int inputs() const { return static_cast<int>(in_.size()); }

  std::uint64_t scheduled_at = kNever;  // owned by NetworkCore's scheduler

 private:
  static constexpr std::int8_t kConsume = -1;  // the barrier unit takes the flit
  static constexpr std::int8_t kUnrouted = -2;  // a sync flit before its CAM lookup
  // A tree worm's flit: its outputs are the input's TreeIn, set when its head claims them.
  static constexpr std::int8_t kTree = -3;
  struct Buffered {
    Flit flit;
    std::uint64_t ready = 0;  // first cycle it may leave the buffer (kUnrouted: arrival)
    std::int8_t out = 0;      // output index, kConsume, or kUnrouted
    // A multidestination worm absorbed here and forwarded: the flit also goes to this
    // ejection output, in the same cycle as to `out` (both granted, or neither).
    std::int8_t copy = -1;
    // The first flit forwarded after an absorbing head: it leaves on `out` as a head.
    bool promote = false;
    // A CS setup/teardown passing through: the barrier unit opens/closes its transit
    // entry before the message may leave.
    bool cs_update = false;
  };
  struct CreditReturn {
    std::uint64_t cycle = 0;
    std::uint8_t port = 0;
    std::uint8_t vc = 0;
  };
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

  // Outputs: the five ports, then (all-port) the ejection channels of inputs 1..4.
  static constexpr int kMaxInputs = kPorts + 3;
  static constexpr int kMaxOutputs = kPorts + 4;
  // Per input and worm VC, what the flits of the worm now arriving do (set by its head).
  struct WormIn {
    std::int8_t out = -1;
    bool copy = false;          // absorbed here as well
    bool promote_next = false;  // the next flit is the forwarded worm's head
  };
  static constexpr int worm_slot(int vc) { return vc == kWormVc ? 0 : vc == kSnakeVc ? 1 : 2; }
  static constexpr int kWormSlots = 3;
  // Per input, the tree worm now passing (docs/tree-multicast.md): the outputs its head
  // claimed and, for the copies to the register's children, their readdressed heads.
  struct TreeIn {
    bool claimed = false;          // the head has claimed its outputs
    std::uint16_t outputs = 0;     // bit per output; none left: the worm is dropped here
    std::uint16_t to_child = 0;    // outputs whose copy is readdressed to a child
    std::array<NodeId, kPorts> child{};
    std::array<Route, kPorts> child_route{};
  };

  std::uint64_t receive_at(int input, const Flit& f, std::uint64_t arrival);
  Port route_of(const Flit& f) const;
  // The output a flit from `input` takes to reach the NI: Local, or in an all-port
  // router the input link's own ejection channel.
  int eject_output(int input) const {
    return all_port_ && input >= 1 && input < kPorts ? kPorts + input - 1 : index(Port::Local);
  }
  // Where worms enter from the NI: the Local input and an all-port NI's channels 1..3. Only
  // there does a worm head's forced first hop count (docs/microarchitecture.md).
  static constexpr bool injection_input(int input) { return input == 0 || input >= kPorts; }
  // Outputs of a multidestination worm's flits arriving on `input` (absorb, forward).
  void classify_worm(Buffered& b, int input);
  // One input whose tree head is at the front of its FIFO, ready and unclaimed, claims
  // its outputs (round robin).
  void claim_tree_outputs(std::uint64_t cycle, RouterLinks& links);
  // The flit a tree worm's flit from `input` puts on output `o` (readdressed to a child).
  Flit tree_copy(int input, int o, const Flit& f) const;
  // Route and router delay of a flit arriving in `arrival`, from the registers as they
  // are at the start of that cycle.
  void classify(Buffered& b, int input, std::uint64_t arrival) const;
  void classify_arrivals(std::uint64_t cycle);
  // Takes one message addressed here (true) or updates the CS entry of a setup/teardown
  // passing through (false, the message stays). Also false if the message's register is
  // no longer a member: it then goes on to the NI.
  bool barrier_unit(Buffered& b, std::uint64_t cycle);
  void select_batch(std::uint64_t cycle);
  void cancel_batch(int reg);
  void send(int out, const Flit& f, std::uint64_t cycle, RouterLinks& links);
  void update_cs_path(const Flit& f);
  static constexpr int queue_bit(int port, int vc) { return port * kVcs + vc; }
  static constexpr std::uint64_t queue_mask(int port, int vc) { return std::uint64_t{1} << queue_bit(port, vc); }
  void pop_input(int port, int vc, std::uint64_t cycle, RouterLinks& links);
  bool has_credit(int out, int vc) const {
    return out == index(Port::Local) || out >= kPorts || credits_[out][vc] > 0;
  }
  // Whether input `i` may put a flit of VC `v` on output `o` now: a worm's head needs the
  // output's VC free, its other flits need it held by `i`.
  bool may_use(int o, int v, bool head, int i) const {
    return !is_worm_vc(v) || worm_owner_[o][worm_slot(v)] == (head ? -1 : i);
  }
  InjectionChannel& source(int channel) {
    return channel == 0 ? source_ : (*more_sources_)[static_cast<std::size_t>(channel - 1)];
  }
  const InjectionChannel& source(int channel) const {
    return const_cast<RouterCore*>(this)->source(channel);
  }
  int channels() const { return all_port_ ? 4 : 1; }
  static int input_of_channel(int channel) { return channel == 0 ? 0 : kPorts + channel - 1; }
  // Throws std::logic_error for a channel that does not exist, or a sync message on a
  // channel other than 0 (channels 1-3 carry worms only: the barrier unit serves the
  // five ports).
  void check_channel(int channel, const Flit& f) const;

  NodeId id_;
  Coord coord_;
  const Coord* coords_;
  MeshShape mesh_;
  Timing timing_;
  std::uint32_t max_children_;
  std::uint32_t tree_depth_;  // the tree VC's buffer depth: its credits when the buffer is empty
  bool all_port_;
  int outputs_;
  std::vector<std::array<FlitFifo<Buffered>, kVcs>> in_;  // per input
  std::array<std::array<std::uint32_t, kVcs>, kPorts> credits_{};
  // Input holding each output's worm VCs (kWormVc, kSnakeVc, kTreeVc), or -1.
  std::array<std::array<std::int8_t, kWormSlots>, kMaxOutputs> worm_owner_{};
  std::array<std::array<WormIn, 2>, kMaxInputs> worm_in_{};  // VCs 0 and 3
  // Allocated with the first tree worm: most routers never see one (wafer-scale barriers).
  std::unique_ptr<std::array<TreeIn, kMaxInputs>> tree_in_;
  TreeIn& tree_in(int i) {
    if (!tree_in_) tree_in_ = std::make_unique<std::array<TreeIn, kMaxInputs>>();
    return (*tree_in_)[static_cast<std::size_t>(i)];
  }
  const TreeIn& tree_in(int i) const { return const_cast<RouterCore*>(this)->tree_in(i); }
  std::array<std::uint8_t, kMaxInputs> in_rr_{};    // next VC to favour, per input
  std::array<std::uint16_t, kMaxOutputs> out_rr_{};  // next requester to favour, per output
  // Credits in flight back to us: never more than the downstream buffers hold.
  FlitFifo<CreditReturn> credit_returns_;
  InjectionChannel source_;  // injection channel 0
  std::unique_ptr<std::array<InjectionChannel, 3>> more_sources_;  // all-port: 1..3
  BarrierRegisterFile regs_;
  std::vector<Batch> batches_;                // per barrier register
  std::uint32_t pending_ = 0;                 // batches pending, plus 1 while the emitter sends
  Emitter emitter_;
  std::uint8_t unit_rr_ = 0;                  // next input the barrier unit favours
  std::uint8_t claim_rr_ = 0;                 // next input whose tree head may claim first
  std::uint64_t nonempty_ = 0;                // bit input*kVcs+vc: that input VC holds flits
  std::uint64_t unrouted_ = 0;                // same bits: that input VC holds kUnrouted flits
};

}  // namespace meshsync

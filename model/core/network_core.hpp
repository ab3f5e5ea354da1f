// The mesh of router cores, the links between them and an event-driven scheduler: a
// router is stepped only in cycles where it has work, so an idle mesh costs nothing.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.hpp"
#include "external_router.hpp"
#include "fault.hpp"
#include "router_core.hpp"

namespace meshsync {

// Where ejected flits go (the network interfaces, or a traffic scoreboard).
class NetworkSink {
 public:
  virtual ~NetworkSink() = default;
  virtual void on_eject(NodeId node, const Flit& f, std::uint64_t cycle) = 0;
};

// Something that creates packets by itself at future cycles (a traffic generator).
class TrafficSource {
 public:
  virtual ~TrafficSource() = default;
  virtual std::uint64_t next_cycle() const = 0;  // kNever when done
  virtual void emit(std::uint64_t cycle, class NetworkCore& net) = 0;
};

// Observes router outputs and barrier registers for waveforms; only called when set.
class NetworkProbe {
 public:
  virtual ~NetworkProbe() = default;
  virtual void on_output(NodeId node, int port, const Flit& f, std::uint64_t cycle) = 0;
  // A flit handed to node's injection channel, due there in `cycle` (a worm's whole
  // make-up is known here, before its flits spread over the mesh).
  virtual void on_inject(NodeId /*node*/, const Flit& /*f*/, std::uint64_t /*cycle*/) {}
  virtual void after_step(NodeId node, std::uint64_t cycle) = 0;
  // The node's barrier registers change at `cycle` without the router running then
  // (software writing one): look at them then.
  virtual void touch(NodeId node, std::uint64_t cycle) = 0;
  // A credit for node's output `port`, VC `vc`, usable there from `due` on: the counter
  // the router holds grows then (a probe that follows the counters need not read them).
  virtual void on_credit(NodeId /*node*/, int /*port*/, int /*vc*/, std::uint64_t /*due*/) {}
  // A cycle in which the probe must see the mesh although no router has work (a credit
  // that becomes usable then, a register software wrote).
  virtual std::uint64_t next_cycle() const = 0;
  virtual void begin_cycle(std::uint64_t cycle) = 0;
};

// Raised when a busy network makes no progress for NetworkConfig::deadlock_cycles.
struct DeadlockError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LinkCounters {
  std::uint64_t sync_hops = 0;       // links crossed by sync messages (their heads)
  std::uint64_t sync_flit_hops = 0;  // ... by their flits (a reduction message has several)
  std::uint64_t worm_flit_hops = 0;
  std::uint64_t tree_copies_dropped = 0;  // tree worm copies a router could not send on
};

class NetworkCore : private RouterLinks {
 public:
  explicit NetworkCore(const ValidConfig& cfg);
  NetworkCore(const NetworkCore&) = delete;
  NetworkCore& operator=(const NetworkCore&) = delete;

  const NetworkConfig& config() const { return cfg_; }
  const MeshShape& mesh() const { return cfg_.mesh; }
  // A router's state is allocated the first time anything reaches it (a flit, a
  // register write, a look from a test or a waveform): a mostly idle wafer-scale mesh
  // pays only for the routers its traffic crosses. An untouched router is in its reset
  // state, which is what allocating it on a look shows.
  RouterCore& router(NodeId n) {
    if (!routers_[n]) allocate(n);
    return *routers_[n];
  }
  const RouterCore& router(NodeId n) const {
    if (!routers_[n]) allocate(n);
    return *routers_[n];
  }
  // Routers allocated so far (tests: a barrier allocates only the routers it crosses).
  std::size_t routers_allocated() const { return allocated_; }

  void set_sink(NetworkSink* s) { sink_ = s; }
  void set_traffic(TrafficSource* t) { traffic_ = t; }
  void set_probe(NetworkProbe* p) { probe_ = p; }
  // Faults to inject (docs/reliability.md); model routers only, before the first cycle.
  void set_faults(FaultInjector* f);
  // Puts the routers that `ext` has (ext->at(n) != nullptr) in place of the cores there;
  // before the first cycle.
  void set_external(ExternalRouters* ext);
  bool is_external(NodeId n) const { return !ext_.empty() && ext_[n] != nullptr; }
  // Words of a vector node n's router reduces: the configuration's, or an RTL router's own.
  std::uint32_t reduce_words(NodeId n) const {
    return is_external(n) ? ext_[n]->reduce_words() : cfg_.router.reduce_words;
  }
  // Every router carries tree worms (no external router refuses them).
  bool carries_tree_worms() const;

  // Software writing node's barrier register through its NI in `cycle`, after the
  // routers' step of that cycle: the write acts at the edge that ends it. register_ok()
  // tells, from the next cycle on, whether it took: a program fails when no register is
  // free or the member has more children than a register holds (the NI then keeps the
  // register in node memory). Freeing leaves an entry that CS paths still cross.
  void program_register(NodeId n, const BarrierRegisterSetup& s, std::uint64_t cycle);
  void free_register(NodeId n, std::uint8_t gid, std::uint64_t cycle);
  bool register_ok(NodeId n) const;

  // A slower wire, at run time: everything node n sends out of `port` (flits, and the
  // credits it returns upstream over that wire) arrives `extra` cycles after tp. Used to
  // slow one link and watch a broadcast tree adapt (docs/broadcast.md). Model routers
  // only: an RTL router's pipeline fixes tp. Throws ConfigError if the longest
  // legitimate wait would reach deadlock_cycles, or with external routers.
  void set_link_delay(NodeId n, Port port, std::uint32_t extra);
  std::uint32_t link_delay(NodeId n, Port port) const {
    return link_delay_.empty() ? 0 : link_delay_[n][static_cast<std::size_t>(index(port))];
  }

  // Hand a flit to node's injection channel `channel` (0..ni_ports-1); it enters the
  // router at `cycle` or later.
  void inject(NodeId node, const Flit& f, std::uint64_t cycle, int channel = 0);

  // The earliest cycle that has work, or kNever.
  std::uint64_t next_event_cycle() const;
  // Runs every core that has work in cycle c. Cycles must be given in increasing order.
  void run_cycle(std::uint64_t c);
  // Then the external routers due in that cycle, once the software's actions of the
  // cycle are in (MeshSystem runs this half a cycle later).
  bool external_due() const { return !external_due_.empty(); }
  void run_external(std::uint64_t c);
  bool has_external() const { return external_ != nullptr; }
  // Cycle c has been run (its cores stepped).
  bool ran(std::uint64_t c) const { return started_ && last_cycle_ >= c; }
  // Without SystemC: run until nothing is left or `limit` is reached; returns the last
  // cycle processed.
  std::uint64_t run_until_idle(std::uint64_t limit = kNever);
  bool idle() const { return pending_wakes_ == 0 && external_due_.empty(); }
  // Some router holds a sync message (RouterCore::holds_sync): what a barrier waits for
  // under background load. Looks at every model router (not at external ones).
  bool holds_sync() const;
  std::uint64_t last_cycle() const { return last_cycle_; }

  LinkCounters& counters() { return counters_; }
  std::uint64_t router_steps() const { return router_steps_; }
  std::uint64_t new_packet_id() { return ++packet_ids_; }

  // Called by routers.
  void schedule(NodeId n, std::uint64_t cycle);
  bool probed() const { return probe_ != nullptr; }
  void touch(NodeId n, std::uint64_t cycle) {
    if (probe_) probe_->touch(n, cycle);
  }

  // One line per stuck buffer, for a deadlock report.
  std::string stuck_report(std::size_t max_lines = 12) const;

 private:
  void allocate(NodeId n) const;
  void admit_far(std::uint64_t base);
  // RouterLinks: the links between neighbours and to the network interfaces.
  void flit_out(NodeId from, int port, const Flit& f, std::uint64_t cycle) override;
  void credit_out(NodeId from, int port, int vc, std::uint64_t cycle) override;
  void tree_copy_dropped(NodeId, int, std::uint64_t, std::uint64_t) override { ++counters_.tree_copies_dropped; }
  NodeId neighbor(NodeId n, int port) const { return neighbors_[n][static_cast<std::size_t>(port)]; }
  ExternalRouter* ext(NodeId n) const { return ext_.empty() ? nullptr : ext_[n]; }
  void schedule_external(NodeId n, std::uint64_t cycle);
  void mark_external_due(NodeId n);

  NetworkConfig cfg_;
  std::vector<Coord> coords_;
  mutable std::vector<std::unique_ptr<RouterCore>> routers_;  // null until first used
  mutable std::size_t allocated_ = 0;
  std::vector<std::array<NodeId, kPorts>> neighbors_;
  // A calendar of wake-ups: one bucket per cycle within the horizon (every wake-up a
  // router gives itself or a neighbour), a heap beyond it (the NI's start-ups).
  std::vector<std::vector<NodeId>> buckets_;
  std::uint64_t horizon_mask_ = 0;
  std::uint64_t base_ = 0;  // buckets hold cycles [base_, base_ + horizon)
  std::size_t pending_wakes_ = 0;
  std::vector<NodeId> scratch_;
  std::priority_queue<NodeEvent, std::vector<NodeEvent>, std::greater<NodeEvent>> far_;
  NetworkSink* sink_ = nullptr;
  TrafficSource* traffic_ = nullptr;
  NetworkProbe* probe_ = nullptr;
  FaultInjector* faults_ = nullptr;
  ExternalRouters* external_ = nullptr;
  std::vector<ExternalRouter*> ext_;      // per node; empty without external routers
  std::vector<NodeId> external_due_;      // external routers to step in last_cycle_
  std::vector<NodeId> external_stepping_; // the list being stepped (reused, no allocation)
  std::vector<std::uint8_t> in_due_;      // per node: listed in external_due_
  bool external_open_ = false;            // last_cycle_'s external pass has not run yet
  std::vector<std::uint8_t> reg_ok_;      // per node: outcome of the last register write
  // Extra cycles per node and output port; empty (and free) until a link is slowed.
  std::vector<std::array<std::uint32_t, kPorts>> link_delay_;
  LinkCounters counters_;
  std::uint64_t last_cycle_ = 0;
  bool started_ = false;
  bool in_cycle_ = false;
  std::uint64_t last_progress_ = 0;
  std::uint64_t router_steps_ = 0;
  std::uint64_t packet_ids_ = 0;
};

}  // namespace meshsync

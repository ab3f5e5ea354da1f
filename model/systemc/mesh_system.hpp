// The SystemC top: the network clock that steps the router cores, one network interface
// per node, and the sink that hands ejected flits to interfaces or the traffic checker.
// The clock thread sleeps while the network has no work, so idle cycles cost nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "../core/network_core.hpp"
#include "../core/packet.hpp"
#include "../core/traffic.hpp"
#include "network_interface.hpp"

namespace meshsync {

class MeshSystem : public sc_core::sc_module, public NiHost, private NetworkSink {
 public:
  // cycle_time(): NiHost's.
  MeshSystem(sc_core::sc_module_name name, const ValidConfig& cfg);
  ~MeshSystem() override;

  const NetworkConfig& config() const override { return core_.config(); }
  const MeshShape& mesh() const override { return core_.mesh(); }
  NetworkCore& core() { return core_; }
  // Node n's network interface, created when first asked for (by the node's software
  // or a flit ejected there).
  NetworkInterface& ni(NodeId n);
  std::size_t interfaces_allocated() const { return nis_allocated_; }

  std::uint64_t now_cycle() const override;
  // The wait from now to the start of `cycle` (software acts on cycle boundaries only;
  // RTL routers evaluate between them).
  static sc_core::sc_time until(std::uint64_t cycle);
  // Software without a thread of its own: `fn` runs at the start of `cycle` (>= now;
  // now: at once, in a later delta cycle), in the order of cycle, then of the calls.
  // Callable before the simulation starts too.
  void at(std::uint64_t cycle, std::function<void()> fn) override;
  // `fn` acts on the network in the current cycle: it runs once the routers have run
  // this cycle (at once if they have, or have nothing to do in it), so that its action
  // takes effect at the cycle's end, as a register write does in hardware.
  void at_cycle_end(std::function<void()> fn);
  // The software's register port (NetworkCore::program_register): one write per node and
  // cycle, acting at the end of the cycle; `done` gets the outcome in the next cycle
  // (false: no free register, too many children, nothing to free). `s` must stay valid
  // until then.
  void program_register(NodeId node, const BarrierRegisterSetup& s, std::function<void(bool)> done) override;
  void free_register(NodeId node, std::uint8_t gid, std::function<void(bool)> done) override;
  // Hand a flit to node's injection channel `channel` (0..ni_ports-1) at `cycle` (>= now)
  // and wake the clock.
  void inject(NodeId node, const Flit& f, std::uint64_t cycle, int channel = 0) override;
  std::uint64_t new_packet_id() override { return core_.new_packet_id(); }
  Scoreboard& scoreboard() override { return board_; }
  // Extra loss of tree multicast copies at the NIs (docs/tree-multicast.md): each copy
  // that finds a receive posted is dropped with probability p, drawn per NI from `seed`.
  void set_datagram_loss(double p, std::uint64_t seed) {
    loss_ = p;
    loss_seed_ = seed;
  }
  double datagram_loss() const override { return loss_; }
  std::uint64_t datagram_loss_seed() const override { return loss_seed_; }
  std::uint32_t reduce_words(NodeId node) const override { return core_.reduce_words(node); }
  // Software changed node's router state in this cycle (a register write, acting at its
  // end): waveforms show it from the next cycle.
  void touch(NodeId node);

  // Ordinary load next to the software's own traffic.
  void attach_traffic(TrafficGenerator* gen);
  bool has_traffic() const { return traffic_ != nullptr; }
  // For an SC_THREAD: returns once the network holds no flit and expects none.
  void wait_idle();
  // For an SC_THREAD: returns at the start of `cycle` (at once if it has begun).
  void wait_cycle(std::uint64_t cycle);
  // For an SC_THREAD: returns once no sync message is left in the network, whatever
  // ordinary traffic is doing (a cycle boundary at a time).
  void wait_sync_drained();

  // The first error raised inside the clock thread (deadlock) or by software's requests,
  // empty if none.
  const std::string& error() const { return error_; }
  // A request the configuration cannot serve, found only when software made it (an NI
  // command on a router that lacks the hardware): nonempty stops the run.
  const std::string& refusal() const { return refusal_; }
  // Processes still blocked in an NI, one line each (empty when everything finished).
  std::vector<std::string> blocked_processes() const;

 private:
  void clock_thread();
  void software_method();
  // Callbacks set with at() before the simulation started: SystemC drops notifications
  // made during elaboration, so the first one is notified here.
  void start_of_simulation() override;
  void register_write(NodeId node, std::function<void(std::uint64_t)> write,
                      std::function<void(bool)> done);
  void run_at_cycle_end();
  void on_eject(NodeId node, const Flit& f, std::uint64_t cycle) override;

  NetworkCore core_;
  double loss_ = 0;
  std::uint64_t loss_seed_ = 1;
  std::vector<std::unique_ptr<NetworkInterface>> nis_;  // null until first used
  std::size_t nis_allocated_ = 0;
  Scoreboard board_;
  TrafficGenerator* traffic_ = nullptr;
  sc_core::sc_event wake_;
  sc_core::sc_event idle_;
  // Callbacks of at(): a min-heap on (cycle, order of the calls).
  struct Timed {
    std::uint64_t cycle;
    std::uint64_t seq;
    std::function<void()> fn;
  };
  struct Later {  // heap order: the earliest (cycle, call) on top
    bool operator()(const Timed& a, const Timed& b) const {
      return a.cycle != b.cycle ? a.cycle > b.cycle : a.seq > b.seq;
    }
  };
  std::vector<Timed> timed_;
  std::uint64_t timed_seq_ = 0;
  sc_core::sc_event timed_due_;
  std::vector<std::function<void()>> cycle_end_;  // at_cycle_end() callbacks of this cycle
  struct RegisterPort {  // a node's register port, held from a write to its outcome
    bool busy = false;
    // Writes queued behind the current one (rare: a vector, since an empty deque
    // already holds a 512-byte block and every member node has a port).
    std::vector<std::function<void()>> waiting;
  };
  std::vector<std::unique_ptr<RegisterPort>> register_ports_;
  std::string error_;
  std::string refusal_;
  // Freed when the simulation runs out of memory, so that SystemC can still wrap the
  // bad_alloc for run_program to report in one line (measured: a router allocated in the
  // first cycles of a 512x512 run under ulimit -v left SystemC no room, and it aborted).
  std::unique_ptr<char[]> oom_reserve_ = std::make_unique<char[]>(std::size_t{1} << 20);
};

}  // namespace meshsync

// The SystemC top: the network clock that steps the router cores, one network interface
// per node, and the sink that hands ejected flits to interfaces or the traffic checker.
// The clock thread sleeps while the network has no work, so idle cycles cost nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "../core/network_core.hpp"
#include "../core/packet.hpp"
#include "../core/traffic.hpp"
#include "network_interface.hpp"

namespace meshsync {

class MeshSystem : public sc_core::sc_module, private NetworkSink {
 public:
  // One network clock period; the papers' nanoseconds are cycles at 1 GHz.
  static sc_core::sc_time cycle_time() { return sc_core::sc_time(1, sc_core::SC_NS); }

  MeshSystem(sc_core::sc_module_name name, const NetworkConfig& cfg);
  ~MeshSystem() override;

  const NetworkConfig& config() const { return core_.config(); }
  const MeshShape& mesh() const { return core_.mesh(); }
  NetworkCore& core() { return core_; }
  NetworkInterface& ni(NodeId n) { return *nis_[n]; }

  std::uint64_t now_cycle() const;
  // The wait from now to the start of `cycle` (software acts on cycle boundaries only;
  // RTL routers evaluate between them).
  static sc_core::sc_time until(std::uint64_t cycle);
  // For an SC_THREAD about to act on the network in the current cycle: returns once the
  // routers have run this cycle, so that the action takes effect at its end, as a
  // register write does in hardware.
  void await_cycle_end();
  // The software's register port (NetworkCore::program_register) for an SC_THREAD: one
  // write per node and cycle, acting at the end of the cycle; returns in the next cycle
  // with the outcome (false: no free register, too many children, nothing to free).
  bool program_register(NodeId node, const BarrierRegisterSetup& s);
  bool free_register(NodeId node, std::uint8_t gid);
  // Hand a flit to node's injection channel at `cycle` (>= now) and wake the clock.
  void inject(NodeId node, const Flit& f, std::uint64_t cycle);
  Scoreboard& scoreboard() { return board_; }
  // Software changed node's router state (a register write): waveforms show it now.
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

  // The first error raised inside the clock thread (deadlock), empty if none.
  const std::string& error() const { return error_; }
  // Processes still blocked in an NI, one line each (empty when everything finished).
  std::vector<std::string> blocked_processes() const;

 private:
  void clock_thread();
  template <typename Write>
  bool register_write(NodeId node, Write write);
  void on_eject(NodeId node, const Flit& f, std::uint64_t cycle) override;

  NetworkCore core_;
  std::vector<std::unique_ptr<NetworkInterface>> nis_;
  Scoreboard board_;
  TrafficGenerator* traffic_ = nullptr;
  sc_core::sc_event wake_;
  sc_core::sc_event idle_;
  sc_core::sc_event cycle_done_;
  struct RegisterPort {  // a node's register port, held from a write to its outcome
    bool busy = false;
    sc_core::sc_event free;
  };
  std::vector<std::unique_ptr<RegisterPort>> register_ports_;
  std::string error_;
};

}  // namespace meshsync

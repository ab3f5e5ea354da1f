// The skeleton every simulated experiment shares: a fresh machine, the caller's hook on
// it (RTL routers in place of cores, a waveform probe), optional unicast load beside the
// experiment's own work, the experiment's driver on a software thread, the simulation
// to its end, and the checks that it ended well.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <string>

#include "../../../model/core/traffic.hpp"
#include "../machine.hpp"

namespace meshsync {

// Sees the machine before anything runs on it (the program attaches RTL routers here).
using MachineHook = std::function<void(Machine&)>;

// Ordinary unicast load running while the experiment's own work is measured (`--load`).
struct BackgroundLoad {
  std::string pattern;  // empty: none
  double rate = 0.1;
  std::int64_t flits = 4;
  std::int64_t warmup = 1000;  // cycles of load before the experiment starts
};

// The generator's parameters for a background load: packets from the load's start until
// the driver returns (TrafficGenerator::end_window).
TrafficParams background_params(const BackgroundLoad& l, std::uint64_t seed);

class ExperimentRun {
 public:
  // The machine is never destroyed: SystemC removes objects from its registries one by
  // one in linear time, so tearing down the 8192 modules of a 64x64 mesh would cost more
  // than simulating a barrier on it. The process exit reclaims it.
  ExperimentRun(const ValidConfig& cfg, const MachineHook& hook);
  ExperimentRun(const ExperimentRun&) = delete;
  ExperimentRun& operator=(const ExperimentRun&) = delete;

  Machine& machine() { return machine_; }
  // Unicast load from cycle 1 (the NI hands a packet over a cycle before it enters). It
  // is measured until the driver returns, or over its own window when there is no driver
  // (`meshsync traffic`); then it drains.
  TrafficGenerator& add_load(const TrafficParams& p);
  const TrafficGenerator* load() const { return load_.get(); }

  // Runs `driver` (if any) on a software thread named `name` and simulates until every
  // thread finished and the network drained. Throws SimulationError on deadlock, on
  // threads left blocked, and when the load left packets undelivered or misdelivered.
  void run(const std::function<void()>& driver = {}, const std::string& name = "driver");
  // The same without the load's drain check, a simulation error returned as its message
  // instead of thrown (the soak reports failures rather than failing).
  std::optional<std::string> run_reporting(const std::function<void()>& driver = {},
                                           const std::string& name = "driver");
  // Host time of the simulation itself (run()).
  double seconds() const { return seconds_; }

 private:
  Machine& machine_;
  std::unique_ptr<TrafficGenerator> load_;
  double seconds_ = 0;
};

// Throws SimulationError if measured packets were left undelivered or misdelivered.
void check_drained(const TrafficGenerator& gen);

}  // namespace meshsync

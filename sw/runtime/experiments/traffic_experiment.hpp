// `meshsync traffic`: ordinary unicast load on the simulated mesh, measured like a NoC
// simulator measures it.
#pragma once

#include <cstdint>

#include "experiment_run.hpp"

namespace meshsync {

struct TrafficExperimentResult {
  TrafficResult traffic;
  // The network is done when the last flit arrives (RTL routers may still be returning
  // credits for a few cycles after that).
  std::uint64_t cycles = 0;
  double router_cycles = 0;       // cycles x routers
  double simulation_seconds = 0;  // host time of the simulation
  double router_cycles_per_second() const { return router_cycles / simulation_seconds; }
};

TrafficExperimentResult run_traffic_experiment(const NetworkConfig& cfg, const TrafficParams& p,
                                               const MachineHook& hook = {});

}  // namespace meshsync

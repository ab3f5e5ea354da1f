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
  // The drain was cut at its bound (run_traffic_experiment) with measured packets still
  // in the network: the rate is beyond saturation, and the latencies are of the packets
  // that arrived.
  bool drain_cut = false;
  // The run stopped in the window: the backlog grew in each of the last three sample
  // periods, by 1 % of the load offered in them or more (run_traffic_experiment), so the
  // offered load is beyond saturation. The
  // results are of the window up to there.
  bool saturated = false;
  // Packets (measured or not) in the network when the run stopped at the bound; 0 when it
  // drained before.
  std::uint64_t undelivered = 0;
  double router_cycles_per_second() const { return router_cycles / simulation_seconds; }
};

// After the measured window the load goes on being offered until every measured packet
// has arrived (as BookSim does), and the network drains; but the run stops this many
// cycles or the window's length after the window, whichever is more: beyond saturation
// that drain would grow without end.
inline constexpr std::uint64_t kMinDrainCycles = 10000;
// The saturation check samples the backlog every tenth of the window, at least this often
// apart (a shorter period would see the injection's noise as growth).
inline constexpr std::uint64_t kSaturationPeriodMin = 500;
// Saturated: over the last three periods the backlog grew by this share of the packets
// offered in them (the network accepted less than 99 % of the load).
inline constexpr double kSaturationShortfall = 0.01;

TrafficExperimentResult run_traffic_experiment(const ValidConfig& cfg, const TrafficParams& p,
                                               const MachineHook& hook = {});

}  // namespace meshsync

#include "traffic_experiment.hpp"

#include <algorithm>
#include <optional>

namespace meshsync {

TrafficExperimentResult run_traffic_experiment(const NetworkConfig& cfg, const TrafficParams& p,
                                               const MachineHook& hook) {
  cfg.validate();
  p.validate(cfg.mesh);
  ExperimentRun run(cfg, hook);
  const TrafficGenerator& gen = run.add_load(p);
  TrafficExperimentResult out;
  Machine& m = run.machine();
  const std::uint64_t drain_limit = 1 + p.warmup + p.cycles + std::max(p.cycles, kMinDrainCycles);
  // Scheduled once the simulation runs (a callback set before sc_start would not fire).
  m.spawn("drain bound", [&] {
    m.mesh().at(drain_limit, [&] {
      // Packets created after the window are not measured: once the measured ones have
      // all arrived, the rest of a saturated network's backlog need not drain either.
      if (gen.scoreboard().in_flight() == 0) return;
      out.drain_cut = !gen.finished();
      out.undelivered = gen.scoreboard().in_flight();
      m.stop();
    });
  });
  if (const std::optional<std::string> error = run.run_reporting()) throw SimulationError(*error);
  if (!out.drain_cut) check_drained(gen);
  out.traffic = gen.result();
  out.cycles = out.traffic.last_delivery;
  out.router_cycles = static_cast<double>(out.cycles) * cfg.mesh.nodes();
  out.simulation_seconds = run.seconds();
  return out;
}

}  // namespace meshsync

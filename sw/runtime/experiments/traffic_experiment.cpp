#include "traffic_experiment.hpp"

namespace meshsync {

TrafficExperimentResult run_traffic_experiment(const NetworkConfig& cfg, const TrafficParams& p,
                                               const MachineHook& hook) {
  cfg.validate();
  p.validate(cfg.mesh);
  ExperimentRun run(cfg, hook);
  const TrafficGenerator& gen = run.add_load(p);
  run.run();
  TrafficExperimentResult out;
  out.traffic = gen.result();
  out.cycles = out.traffic.last_delivery;
  out.router_cycles = static_cast<double>(out.cycles) * cfg.mesh.nodes();
  out.simulation_seconds = run.seconds();
  return out;
}

}  // namespace meshsync

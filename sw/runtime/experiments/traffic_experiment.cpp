#include "traffic_experiment.hpp"

#include <algorithm>
#include <functional>
#include <vector>
#include <optional>

namespace meshsync {

TrafficExperimentResult run_traffic_experiment(const NetworkConfig& cfg, const TrafficParams& p,
                                               const MachineHook& hook) {
  cfg.validate();
  p.validate(cfg.mesh);
  ExperimentRun run(cfg, hook);
  TrafficGenerator& gen = run.add_load(p);
  TrafficExperimentResult out;
  Machine& m = run.machine();
  // Saturation, found as BookSim2 finds an unstable run: the backlog (packets created
  // and not yet delivered) is sampled every `period` cycles of the window; when it grew
  // in each of the last three periods, by half or more in all and by at least a packet
  // per node, the offered load is beyond what the network accepts, and the run stops
  // there. (Without the last condition a dozen packets in flight at a very low load
  // could grow three times in a row by chance: 11 packets at 0.01 flits/node/cycle.)
  const auto nodes = static_cast<std::uint64_t>(cfg.mesh.nodes());
  const std::uint64_t period = std::max<std::uint64_t>(kSaturationPeriodMin, p.cycles / 10);
  const std::uint64_t window_begin = 1 + p.warmup, window_end = window_begin + p.cycles;
  std::vector<std::uint64_t> backlog;
  std::function<void(std::uint64_t)> sample = [&](std::uint64_t at) {
    m.mesh().at(at, [&, at] {
      backlog.push_back(gen.scoreboard().in_flight());
      const std::size_t k = backlog.size();
      if (k >= 4 && backlog[k - 1] > backlog[k - 2] && backlog[k - 2] > backlog[k - 3] &&
          backlog[k - 3] > backlog[k - 4] && 2 * backlog[k - 1] >= 3 * backlog[k - 4] &&
          backlog[k - 1] >= backlog[k - 4] + nodes) {
        out.saturated = true;
        out.undelivered = backlog.back();
        gen.end_window(m.now());
        m.stop();
        return;
      }
      if (at + period < window_end) sample(at + period);
    });
  };
  if (p.stop_when_saturated && window_begin + period < window_end)
    m.spawn("saturation check", [&] { sample(window_begin + period); });
  const std::uint64_t drain_limit = 1 + p.warmup + p.cycles + std::max(p.cycles, kMinDrainCycles);
  // Scheduled once the simulation runs (a callback set before sc_start would not fire).
  m.spawn("drain bound", [&] {
    m.mesh().at(drain_limit, [&] {
      if (out.saturated) return;
      // Packets created after the window are not measured: once the measured ones have
      // all arrived, the rest of a saturated network's backlog need not drain either.
      if (gen.scoreboard().in_flight() == 0) return;
      out.drain_cut = !gen.finished();
      out.undelivered = gen.scoreboard().in_flight();
      m.stop();
    });
  });
  if (const std::optional<std::string> error = run.run_reporting()) throw SimulationError(*error);
  if (!out.drain_cut && !out.saturated) check_drained(gen);
  out.traffic = gen.result();
  out.cycles = out.saturated ? m.now() : out.traffic.last_delivery;
  out.router_cycles = static_cast<double>(out.cycles) * cfg.mesh.nodes();
  out.simulation_seconds = run.seconds();
  return out;
}

}  // namespace meshsync

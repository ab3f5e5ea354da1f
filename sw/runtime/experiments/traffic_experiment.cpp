#include "traffic_experiment.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace meshsync {

namespace {

// Saturation, found as BookSim2 finds an unstable run: the backlog (packets created and
// not yet delivered) grew in each of the last three sample periods, and over them by at
// least kSaturationShortfall of the packets offered in them (the network accepts less
// than the load) and by at least a packet per node. Measured against the offered load,
// not against the backlog: a long warm-up builds a backlog that grows by a smaller part
// of itself each period, however far beyond saturation (a rule of "grew by half" missed
// 0.45 flits/node/cycle on 8x8 after a 20,000-cycle warm-up). The packet per node keeps
// a dozen packets at a very low load from looking like saturation.
bool backlog_grows(const std::vector<std::uint64_t>& b, std::uint64_t nodes, double offered_packets) {
  const std::size_t k = b.size();
  if (k < 4 || !(b[k - 1] > b[k - 2] && b[k - 2] > b[k - 3] && b[k - 3] > b[k - 4])) return false;
  const auto growth = static_cast<double>(b[k - 1] - b[k - 4]);
  return growth >= static_cast<double>(nodes) && growth >= kSaturationShortfall * offered_packets;
}

}  // namespace

TrafficExperimentResult run_traffic_experiment(const ValidConfig& cfg, const TrafficParams& p,
                                               const MachineHook& hook) {
  p.validate(cfg.mesh);
  ExperimentRun run(cfg, hook);
  TrafficGenerator& gen = run.add_load(p);
  TrafficExperimentResult out;
  Machine& m = run.machine();
  const std::uint64_t window_begin = 1 + p.warmup, window_end = window_begin + p.cycles;
  std::vector<std::uint64_t> backlog;  // packets created and not yet delivered, one a period
  if (p.stop_when_saturated) {
    const std::uint64_t period = std::max<std::uint64_t>(kSaturationPeriodMin, p.cycles / 10);
    const auto nodes = static_cast<std::uint64_t>(cfg.mesh.nodes());
    const double offered = p.rate * static_cast<double>(nodes) * 3.0 * static_cast<double>(period) / p.flits;
    for (std::uint64_t at = window_begin + period; at < window_end; at += period)
      m.mesh().at(at, [&, nodes, offered] {
        backlog.push_back(gen.scoreboard().in_flight());
        if (out.saturated || !backlog_grows(backlog, nodes, offered)) return;
        out.saturated = true;
        out.undelivered = backlog.back();
        gen.end_window(m.now());
        m.stop();
      });
  }
  m.mesh().at(window_end + std::max(p.cycles, kMinDrainCycles), [&] {
    // Packets created after the window are not measured: once the measured ones have
    // all arrived, the rest of a saturated network's backlog need not drain either.
    if (out.saturated || gen.scoreboard().in_flight() == 0) return;
    out.drain_cut = !gen.finished();
    out.undelivered = gen.scoreboard().in_flight();
    m.stop();
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

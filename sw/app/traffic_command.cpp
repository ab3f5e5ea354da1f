#include "traffic_command.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../runtime/experiments/traffic_experiment.hpp"
#include "cosim_attach.hpp"
#include "json_io.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

int run_traffic(const TrafficOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const NetworkConfig& cfg = o.net.config;
  const TrafficParams& p = o.params;
  Cosim cosim;
  TraceSession trace(o.net);
  ProgressBar bar("traffic", "cycles", progress_wanted(o.net.progress, o.json));
  bar.set_total(p.warmup + p.cycles);  // then the drain
  const TrafficExperimentResult x = run_traffic_experiment(cfg, p, [&](Machine& m) {
    cosim = attach_network(m, o.net, p.seed, trace);
    follow_cycles(m, bar);
  });
  bar.finish();
  const TrafficResult& r = x.traffic;
  const double wall = seconds_since(wall0);
  if (o.json) {
    json j = r;
    j.update(json(p));
    j["router_cycles_per_second"] = x.router_cycles_per_second();
    j["saturated"] = x.saturated;
    j["drain_cut"] = x.drain_cut;
    j["undelivered"] = x.undelivered;
    print_json(std::move(j), cfg, cosim, wall, kTrafficUnusedParameters);
    return 0;
  }
  fmt::print("traffic  {} on a {}x{} mesh, rate {} flits/node/cycle, {}-flit packets\n",
             pattern_name(p.pattern), cfg.mesh.width, cfg.mesh.height, p.rate, p.flits);
  fmt::print("  offered   {:.4f}   accepted {:.4f} flits/node/cycle\n", r.offered, r.accepted);
  fmt::print("  latency   avg {:.2f}   p99 {}   max {} cycles ({} packets measured)\n",
             r.latency_avg, r.latency_p99, r.latency_max, r.packets_measured);
  fmt::print("  hops      avg {:.3f}\n", r.hops_avg);
  if (x.saturated)
    fmt::print("  saturated: the backlog grew in each of the last three sample periods ({} packets waiting at cycle "
               "{}); stopped there, as BookSim2 stops an unstable run (--no-saturation-stop runs the window)\n",
               x.undelivered, x.cycles);
  else if (x.drain_cut)
    fmt::print("  saturated: the drain was cut at its bound with {} packets still in the network; the latencies are "
               "of the measured packets that arrived\n",
               x.undelivered);
  else if (x.undelivered > 0)
    fmt::print("  stopped at the drain bound with {} unmeasured packets still in the network (beyond saturation)\n",
               x.undelivered);
  fmt::print("  simulated {} cycles, {:.3g} router-cycles/s, wall {:.3f} s\n", x.cycles,
             x.router_cycles_per_second(), wall);
  print_cosim(cosim);
  return 0;
}

}  // namespace meshsync

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
    // Host speed over a simulation too short for the clock to see is no speed.
    j["router_cycles_per_second"] =
        x.simulation_seconds > 0 ? json(x.router_cycles_per_second()) : json(nullptr);
    j["saturated"] = x.saturated;
    j["drain_cut"] = x.drain_cut;
    j["undelivered"] = x.undelivered;
    print_json(std::move(j), cfg, cosim, wall, kTrafficUnusedParameters);
    return 0;
  }
  fmt::print("traffic  {} on a {}x{} mesh, rate {} flits/node/cycle, {}-flit packets\n",
             pattern_name(p.pattern), cfg.mesh.width, cfg.mesh.height, p.rate, p.flits);
  fmt::print("  offered   {:.4f}   accepted {:.4f} flits/node/cycle\n", r.offered, r.accepted);
  // No measured packet arrived: no latency to show, "-" rather than 0 (as the JSON's null).
  const std::optional<double> latency = traffic_latency_avg(r);
  fmt::print("  latency   avg {}   p99 {}   max {} cycles ({} packets measured)\n", measured_text(latency, "{:.2f}"),
             measured_text(traffic_latency(r, r.latency_p99)), measured_text(traffic_latency(r, r.latency_max)),
             r.packets_measured);
  fmt::print("  hops      avg {}\n", measured_text(traffic_hops_avg(r), "{:.3f}"));
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
  fmt::print("  simulated {} cycles, {} router-cycles/s, wall {:.3f} s\n", x.cycles,
             measured_text(x.simulation_seconds > 0 ? std::optional<double>(x.router_cycles_per_second()) : std::nullopt,
                           "{:.3g}"),
             wall);
  print_cosim(cosim);
  return 0;
}

}  // namespace meshsync

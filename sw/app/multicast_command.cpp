// `meshsync multicast`: path-based multicasts (DP, MP, CP, QG) simulated on the mesh,
// alone (every destination's arrival beside the analytic zero-load sum) or under the QG
// paper's load (mean latency by batch means, saturation marked). docs/multicast.md.
#include "multicast_command.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cosim_attach.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

std::string at(const MeshShape& m, NodeId n) { return fmt::format("({},{})", m.coord(n).x, m.coord(n).y); }

std::string ni_name(std::uint32_t ports) { return ports == 1 ? "one-port" : "all-port"; }

// The paper's model switches that differ from the project's defaults, for the header line.
std::string switches_text(const MulticastParams& p) {
  const MulticastParams d;
  std::string s;
  if (p.model.addresses != d.model.addresses) s += "  addresses " + address_flits_name(p.model.addresses);
  if (p.model.qg_routing != d.model.qg_routing) s += "  QG routing " + qg_routing_name(p.model.qg_routing);
  if (p.model.sender_busy != d.model.sender_busy) s += "  sender busy until " + sender_busy_name(p.model.sender_busy);
  return s;
}

json algorithm_json(const MeshShape& mesh, const BackgroundLoad& load, const MulticastAlgorithmRun& r,
                    const Cosim& cosim) {
  json j{{"algorithm", algorithm_name(r.algorithm)}, {"prep_cycles", paper_prep_cycles(r.algorithm)}};
  if (r.load) {
    const MulticastLoadResult& l = *r.load;
    // A saturated run may stop before any measured multicast finished: null, not 0.
    j.update(json{{"latency_avg_cycles", measured_json(l.latency_avg)},
                  {"latency_stderr_cycles", measured_json(l.latency_stderr)},
                  {"latency_p99_cycles", measured_json(l.latency_p99)},
                  {"latency_max_cycles", measured_json(l.latency_max)},
                  {"zero_load_cycles", measured_json(l.zero_load_avg)}, {"startups", measured_json(l.startups_avg)},
                  {"worms", measured_json(l.worms_avg)}, {"hops", measured_json(l.hops_avg)},
                  {"measured", l.measured},
                  {"throughput_multicasts_per_node_cycle", measured_json(l.throughput)},
                  {"batch_means_cycles", l.batch_means}, {"simulated_cycles", l.cycles},
                  {"saturated", l.saturated}, {"saturation", l.saturation}});
  } else {
    const MulticastRecord& first = r.trials.front();
    json arrivals = json::array();
    for (const auto& [node, cycle] : first.arrivals)
      arrivals.push_back(json{{"node", mesh.coord(node)}, {"latency_cycles", cycle - first.called},
                              {"analytic_cycles", r.analytic_first.at(node)}});
    std::vector<std::uint64_t> latencies;
    for (const MulticastRecord& t : r.trials) latencies.push_back(t.latency());
    j.update(json{{"latency_avg_cycles", trials_avg(r, latency_of)}, {"latency_p99_cycles", trials_p99(r)},
                  {"zero_load_cycles", trials_avg(r, zero_load_of)}, {"startups", trials_avg(r, startups_of)},
                  {"worms", trials_avg(r, worms_of)}, {"hops", trials_avg(r, hops_of)},
                  {"latencies_cycles", latencies}, {"arrivals", arrivals}});
  }
  if (r.background) j["load"] = load_json(load, *r.background);
  if (cosim.rtl) j["rtl"] = cosim;
  return j;
}

void print_trials(const MulticastOptions& o, NodeId src, std::size_t k, const std::vector<MulticastAlgorithmRun>& runs) {
  const NetworkConfig& c = o.net.config;
  const MulticastParams& p = o.params;
  const MeshShape& m = c.mesh;
  fmt::print("multicast on a {}x{} mesh from {} to {} destinations ({}), {} data flits  ts={} tp={} trn={}  {}  "
             "T={}{}  {} trial{}\n",
             m.width, m.height, at(m, src), k, p.dests, p.flits, c.timing.ts, c.timing.tp, c.timing.trn,
             ni_name(c.router.ni_ports), p.threshold, switches_text(p), p.trials, p.trials == 1 ? "" : "s");
  fmt::print("{:>4} {:>5} {:>10} {:>6} {:>6} {:>12} {:>6} {:>16}\n", "algo", "prep", "start-ups", "worms", "hops",
             "latency avg", "p99", "zero-load [cyc]");
  for (const MulticastAlgorithmRun& r : runs)
    fmt::print("{:>4} {:>5} {:>10.3g} {:>6.3g} {:>6.4g} {:>12.2f} {:>6} {:>16.2f}\n", algorithm_name(r.algorithm),
               paper_prep_cycles(r.algorithm), trials_avg(r, startups_of), trials_avg(r, worms_of),
               trials_avg(r, hops_of), trials_avg(r, latency_of), trials_p99(r), trials_avg(r, zero_load_of));
  fmt::print("arrivals in trial 1, cycles after the call (simulated/analytic):\n");
  for (const MulticastAlgorithmRun& r : runs) {
    const MulticastRecord& first = r.trials.front();
    std::string line;
    for (const auto& [node, cycle] : first.arrivals)
      line += fmt::format(" {}{}/{}", at(m, node), cycle - first.called, r.analytic_first.at(node));
    fmt::print("{:>4}{}\n", algorithm_name(r.algorithm), line);
  }
}

void print_load(const MulticastOptions& o, const std::vector<MulticastAlgorithmRun>& runs) {
  const NetworkConfig& c = o.net.config;
  const MulticastParams& p = o.params;
  fmt::print("multicast load on a {}x{} mesh: {} multicasts/node/cycle to {}, {} data flits  ts={} tp={} trn={}  {}  "
             "T={}{}  warm-up {}, {} batches of {}\n",
             c.mesh.width, c.mesh.height, p.rate, p.dests, p.flits, c.timing.ts, c.timing.tp, c.timing.trn,
             ni_name(c.router.ni_ports), p.threshold, switches_text(p), p.warmup, p.batches, p.batch_size);
  fmt::print("{:>4} {:>12} {:>8} {:>6} {:>6} {:>10} {:>10} {:>6} {:>6} {:>11}  {}\n", "algo", "latency avg",
             "stderr", "p99", "max", "zero-load", "start-ups", "worms", "hops", "throughput", "saturated");
  for (const MulticastAlgorithmRun& r : runs) {
    const MulticastLoadResult& l = *r.load;
    fmt::print("{:>4} {:>12} {:>8} {:>6} {:>6} {:>10} {:>10} {:>6} {:>6} {:>11}  {}\n", algorithm_name(r.algorithm),
               measured_text(l.latency_avg, "{:.2f}"), measured_text(l.latency_stderr, "{:.2f}"),
               measured_text(l.latency_p99), measured_text(l.latency_max), measured_text(l.zero_load_avg, "{:.2f}"),
               measured_text(l.startups_avg, "{:.3g}"), measured_text(l.worms_avg, "{:.3g}"),
               measured_text(l.hops_avg, "{:.4g}"), measured_text(l.throughput, "{:.3g}"),
               l.saturated ? "yes (" + l.saturation + ")" : "no");
  }
}

}  // namespace

int run_multicast(const MulticastOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const ValidConfig cfg(o.net.config);  // the one validation (ValidConfig)
  const MulticastParams& p = o.params;
  if (o.net.wants_rtl() && !p.load.pattern.empty())
    throw ConfigError("--load does not run with RTL routers (--rtl, --lockstep) yet");
  // Each algorithm runs on a machine of its own.
  if (!o.net.trace.empty() && p.algorithms.size() > 1)
    throw ConfigError("--trace records one simulation: give one --algo with it");
  TraceSession trace(o.net);
  // Each algorithm's machine its RTL routers, kept like the machine until the process exits.
  std::vector<const Cosim*> cosims;
  // Under load, each algorithm's machine runs about the time its warm-up and measured
  // multicasts take to be generated (less when it saturates): the bar adds them up.
  ProgressBar bar("multicast", "cycles", progress_wanted(o.net.progress, o.json));
  const auto generated = static_cast<double>(p.warmup + p.batches * p.batch_size);
  const std::uint64_t per_machine =
      p.rate > 0 ? static_cast<std::uint64_t>(generated / (p.rate * static_cast<double>(cfg.mesh.nodes()))) : 0;
  bar.set_total(per_machine * p.algorithms.size());
  const MulticastResult r = run_multicast_experiment(cfg, p, [&](Machine& m) {
    cosims.push_back(new Cosim(attach_network(m, o.net, p.seed, trace)));
    follow_cycles(m, bar, per_machine * (cosims.size() - 1), per_machine);
  });
  bar.finish();
  const MeshShape& mesh = cfg.mesh;
  const double wall = seconds_since(wall0);
  if (o.json) {
    json head{{"mesh", mesh}, {"destinations", p.dests}, {"flits", p.flits}, {"rate_multicasts_per_node_cycle", p.rate},
              {"ni", ni_name(cfg.router.ni_ports)}, {"threshold", p.threshold}, {"seed", p.seed},
              {"addresses", address_flits_name(p.model.addresses)}, {"qg_routing", qg_routing_name(p.model.qg_routing)},
              {"sender_busy", sender_busy_name(p.model.sender_busy)}};
    if (p.rate > 0)
      head.update(json{{"warmup_multicasts", p.warmup}, {"batches", p.batches}, {"batch_size", p.batch_size},
                       {"backlog", p.backlog}});
    else
      head.update(json{{"source", mesh.coord(r.source)}, {"trials", p.trials}});
    json all = json::array();
    for (std::size_t a = 0; a < r.runs.size(); ++a) all.push_back(algorithm_json(mesh, p.load, r.runs[a], *cosims[a]));
    head["algorithms"] = all;
    print_json_result(std::move(head), cfg, wall);
    return 0;
  }
  if (p.rate > 0) print_load(o, r.runs);
  else print_trials(o, r.source, r.destinations, r.runs);
  for (std::size_t a = 0; a < r.runs.size(); ++a)
    if (cosims[a]->rtl) {
      fmt::print("{}: ", algorithm_name(r.runs[a].algorithm));
      print_cosim(*cosims[a]);
    }
  if (!p.load.pattern.empty())
    fmt::print("beside unicast {} load at {} flits/node/cycle ({}-flit packets)\n", p.load.pattern, p.load.rate,
               p.load.flits);
  fmt::print("wall time {:.3f} s\n", wall);
  return 0;
}

}  // namespace meshsync

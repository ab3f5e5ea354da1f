// `meshsync multicast`: path-based multicasts (DP, MP, CP, QG) simulated on the mesh,
// alone (every destination's arrival beside the analytic zero-load sum) or under the QG
// paper's load (mean latency by batch means, saturation marked). docs/multicast.md.
#include <algorithm>
#include <chrono>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/member_spec.hpp"
#include "../runtime/multicast_load.hpp"
#include "background_load.hpp"
#include "commands.hpp"
#include "cosim_attach.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

std::string at(const MeshShape& m, NodeId n) { return fmt::format("({},{})", m.coord(n).x, m.coord(n).y); }

std::string ni_name(std::uint32_t ports) { return ports == 1 ? "one-port" : "all-port"; }

// One algorithm's simulation: single multicasts or the load, on a machine of its own.
struct AlgorithmRun {
  MulticastAlgorithm algorithm = MulticastAlgorithm::DP;
  std::vector<MulticastRecord> trials;             // single multicasts
  std::map<NodeId, std::uint64_t> analytic_first;  // the first trial's analytic arrivals
  std::optional<MulticastLoadResult> load;         // under --rate
  json background;                                 // --load's result, if any
  const Cosim* cosim = nullptr;                    // the RTL routers of its machine
};

MulticastSettings settings_of(MulticastAlgorithm a, const MulticastOptions& o) {
  MulticastSettings s;
  s.algorithm = a;
  s.prep = paper_prep_cycles(a);
  s.data_flits = static_cast<std::uint16_t>(o.flits);
  s.threshold = o.threshold;
  return s;
}

void check_options(const MulticastOptions& o) {
  if (!o.net.rtl.empty() || !o.net.lockstep.empty() || !o.net.trace.empty()) {
    if (!o.load.pattern.empty()) throw ConfigError("--load does not run with RTL routers (--rtl, --lockstep) yet");
    if (!o.net.trace.empty() && o.algorithms.size() > 1)
      throw ConfigError("--trace writes one file: give one --algo with it");
  }
  if (!(o.rate >= 0 && o.rate <= 1))
    throw ConfigError(fmt::format("--rate must be from 0 to 1 multicasts/node/cycle, got {}", o.rate));
  if (o.rate > 0) {
    if (!o.source.empty())
      throw ConfigError("--src names the source of single multicasts; under --rate every node is a source");
    if (o.dests.rfind("random:", 0) != 0)
      throw ConfigError("under --rate each multicast draws its destinations: give --dests random:K");
    if (o.trials != 1) throw ConfigError("--trials counts single multicasts; under --rate --batches and --batch-size do");
  }
}

// One algorithm on a machine of its own: `measure(machine, service, run)` on a driver
// thread, after the unicast load's warm-up if there is one. `stop`: end the simulation
// when it returns, with multicasts still in flight (they were only load); with unicast
// load beside them everything drains instead, so that its packets are all measured.
template <class Measure>
AlgorithmRun simulate(MulticastAlgorithm a, const MulticastOptions& o, bool stop, Measure measure) {
  AlgorithmRun r;
  r.algorithm = a;
  Machine& m = *new Machine(o.net.config);  // never destroyed (commands.cpp), nor its RTL
  r.cosim = new Cosim(attach_rtl(m, o.net, o.seed));
  std::optional<TrafficGenerator> load;
  if (!o.load.pattern.empty()) {
    load.emplace(background_params(o.load, o.seed), o.net.config.mesh, 1);
    m.mesh().attach_traffic(&*load);
  }
  MulticastService svc(m, settings_of(a, o));
  m.spawn("driver", [&] {
    if (load) m.mesh().wait_cycle(1 + static_cast<std::uint64_t>(o.load.warmup));
    measure(m, svc, r);
    if (load) load->end_window(m.now());
    else if (stop) m.stop();
  });
  m.run();
  if (!svc.errors().empty()) throw SimulationError("multicast delivery: " + svc.errors().front());
  if (load) {
    check_drained(*load);
    r.background = load_json(o.load, *load);
  }
  return r;
}

AlgorithmRun run_trials(MulticastAlgorithm a, const MulticastOptions& o, const std::vector<MulticastCall>& calls) {
  AlgorithmRun r = simulate(a, o, false, [&](Machine& m, MulticastService& svc, AlgorithmRun& out) {
    out.trials = run_in_turn(m, svc, calls);
  });
  const MulticastSettings s = settings_of(a, o);
  const NetworkConfig& cfg = o.net.config;
  r.analytic_first = router_zero_load_arrivals(plan_multicast(a, cfg.mesh, calls[0].source, calls[0].dests, o.threshold),
                                               cfg.timing, s.prep, s.data_flits, cfg.router.ni_ports);
  return r;
}

AlgorithmRun run_load(MulticastAlgorithm a, const MulticastOptions& o, std::size_t destinations) {
  MulticastLoad p;
  p.rate = o.rate;
  p.destinations = destinations;
  p.warmup = static_cast<std::uint64_t>(o.warmup);
  p.batches = static_cast<std::uint64_t>(o.batches);
  p.batch_size = static_cast<std::uint64_t>(o.batch_size);
  p.backlog_per_node = static_cast<std::uint64_t>(o.backlog);
  p.seed = o.seed;  // the same multicasts (times, sources, destinations) for every algorithm
  return simulate(a, o, true, [&](Machine& m, MulticastService& svc, AlgorithmRun& out) {
    out.load = measure_multicast_load(m, svc, p);
  });
}

// Latency to the last destination over the trials.
double trials_avg(const AlgorithmRun& r, std::uint64_t (*field)(const MulticastRecord&)) {
  double sum = 0;
  for (const MulticastRecord& t : r.trials) sum += static_cast<double>(field(t));
  return sum / static_cast<double>(r.trials.size());
}
std::uint64_t latency_of(const MulticastRecord& t) { return t.latency(); }
std::uint64_t startups_of(const MulticastRecord& t) { return static_cast<std::uint64_t>(t.startups); }
std::uint64_t worms_of(const MulticastRecord& t) { return t.worms; }
std::uint64_t hops_of(const MulticastRecord& t) { return t.hops; }
std::uint64_t zero_load_of(const MulticastRecord& t) { return t.zero_load; }

std::uint64_t trials_p99(const AlgorithmRun& r) {
  std::vector<std::uint64_t> v;
  for (const MulticastRecord& t : r.trials) v.push_back(t.latency());
  return percentile99(std::move(v));
}

json algorithm_json(const MeshShape& mesh, const AlgorithmRun& r) {
  json j{{"algorithm", algorithm_name(r.algorithm)}, {"prep", paper_prep_cycles(r.algorithm)}};
  if (r.load) {
    const MulticastLoadResult& l = *r.load;
    j.update(json{{"latency_avg", l.latency_avg}, {"latency_stderr", l.latency_stderr},
                  {"latency_p99", l.latency_p99}, {"latency_max", l.latency_max},
                  {"zero_load_cycles", l.zero_load_avg}, {"startups", l.startups_avg},
                  {"worms", l.worms_avg}, {"hops", l.hops_avg}, {"measured", l.measured},
                  {"throughput", l.throughput}, {"batch_means", l.batch_means}, {"cycles", l.cycles},
                  {"saturated", l.saturated}, {"saturation", l.saturation}});
  } else {
    const MulticastRecord& first = r.trials.front();
    json arrivals = json::array();
    for (const auto& [node, cycle] : first.arrivals)
      arrivals.push_back(json{{"node", mesh.coord(node)}, {"cycle", cycle - first.called},
                              {"analytic", r.analytic_first.at(node)}});
    std::vector<std::uint64_t> latencies;
    for (const MulticastRecord& t : r.trials) latencies.push_back(t.latency());
    j.update(json{{"latency_avg", trials_avg(r, latency_of)}, {"latency_p99", trials_p99(r)},
                  {"zero_load_cycles", trials_avg(r, zero_load_of)}, {"startups", trials_avg(r, startups_of)},
                  {"worms", trials_avg(r, worms_of)}, {"hops", trials_avg(r, hops_of)},
                  {"latencies", latencies}, {"arrivals", arrivals}});
  }
  if (!r.background.is_null()) j["load"] = r.background;
  if (r.cosim->rtl) j["rtl"] = *r.cosim;
  return j;
}

void print_trials(const MulticastOptions& o, NodeId src, std::size_t k, const std::vector<AlgorithmRun>& runs) {
  const NetworkConfig& c = o.net.config;
  const MeshShape& m = c.mesh;
  fmt::print("multicast on a {}x{} mesh from {} to {} destinations ({}), {} data flits  ts={} tp={} trn={}  {}  "
             "T={}  {} trial{}\n",
             m.width, m.height, at(m, src), k, o.dests, o.flits, c.timing.ts, c.timing.tp, c.timing.trn,
             ni_name(c.router.ni_ports), o.threshold, o.trials, o.trials == 1 ? "" : "s");
  fmt::print("{:>4} {:>5} {:>10} {:>6} {:>6} {:>12} {:>6} {:>16}\n", "algo", "prep", "start-ups", "worms", "hops",
             "latency avg", "p99", "zero-load [cyc]");
  for (const AlgorithmRun& r : runs)
    fmt::print("{:>4} {:>5} {:>10.3g} {:>6.3g} {:>6.4g} {:>12.2f} {:>6} {:>16.2f}\n", algorithm_name(r.algorithm),
               paper_prep_cycles(r.algorithm), trials_avg(r, startups_of), trials_avg(r, worms_of),
               trials_avg(r, hops_of), trials_avg(r, latency_of), trials_p99(r), trials_avg(r, zero_load_of));
  fmt::print("arrivals in trial 1, cycles after the call (simulated/analytic):\n");
  for (const AlgorithmRun& r : runs) {
    const MulticastRecord& first = r.trials.front();
    std::string line;
    for (const auto& [node, cycle] : first.arrivals)
      line += fmt::format(" {}{}/{}", at(m, node), cycle - first.called, r.analytic_first.at(node));
    fmt::print("{:>4}{}\n", algorithm_name(r.algorithm), line);
  }
}

void print_load(const MulticastOptions& o, const std::vector<AlgorithmRun>& runs) {
  const NetworkConfig& c = o.net.config;
  fmt::print("multicast load on a {}x{} mesh: {} multicasts/node/cycle to {}, {} data flits  ts={} tp={} trn={}  {}  "
             "T={}  warm-up {}, {} batches of {}\n",
             c.mesh.width, c.mesh.height, o.rate, o.dests, o.flits, c.timing.ts, c.timing.tp, c.timing.trn,
             ni_name(c.router.ni_ports), o.threshold, o.warmup, o.batches, o.batch_size);
  fmt::print("{:>4} {:>12} {:>8} {:>6} {:>6} {:>10} {:>10} {:>6} {:>6} {:>11}  {}\n", "algo", "latency avg",
             "stderr", "p99", "max", "zero-load", "start-ups", "worms", "hops", "throughput", "saturated");
  for (const AlgorithmRun& r : runs) {
    const MulticastLoadResult& l = *r.load;
    fmt::print("{:>4} {:>12.2f} {:>8.2f} {:>6} {:>6} {:>10.2f} {:>10.3g} {:>6.3g} {:>6.4g} {:>11.3g}  {}\n",
               algorithm_name(r.algorithm), l.latency_avg, l.latency_stderr, l.latency_p99, l.latency_max,
               l.zero_load_avg, l.startups_avg, l.worms_avg, l.hops_avg, l.throughput,
               l.saturated ? "yes (" + l.saturation + ")" : "no");
  }
}

}  // namespace

int run_multicast(const MulticastOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const NetworkConfig& cfg = o.net.config;
  cfg.validate();
  check_options(o);
  check_distinct(o.algorithms, algorithm_name, "algorithm");
  const MeshShape& mesh = cfg.mesh;
  std::vector<AlgorithmRun> runs;
  json head{{"mesh", mesh}, {"destinations", o.dests}, {"flits", o.flits}, {"rate", o.rate},
            {"ni", ni_name(cfg.router.ni_ports)}, {"threshold", o.threshold}, {"seed", o.seed}};
  NodeId src = 0;
  std::size_t k = 0;
  if (o.rate > 0) {
    k = parse_destinations(o.dests, mesh, 0, o.seed).size();  // checks K against the mesh
    for (MulticastAlgorithm a : o.algorithms) runs.push_back(run_load(a, o, k));
    head.update(json{{"warmup", o.warmup}, {"batches", o.batches}, {"batch_size", o.batch_size},
                     {"backlog", o.backlog}});
  } else {
    src = parse_node(o.source.empty() ? "0,0" : o.source, mesh, "source");
    // Random destinations are drawn anew for every trial (seed, seed+1, ...); every
    // algorithm gets the same sets.
    std::vector<MulticastCall> calls;
    for (std::int64_t i = 0; i < o.trials; ++i) {
      MulticastCall c{src, parse_destinations(o.dests, mesh, src, o.seed + static_cast<std::uint64_t>(i))};
      check_multicast(mesh, src, c.dests);
      calls.push_back(std::move(c));
    }
    k = calls.front().dests.size();
    for (MulticastAlgorithm a : o.algorithms) runs.push_back(run_trials(a, o, calls));
    head.update(json{{"source", mesh.coord(src)}, {"trials", o.trials}});
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (o.json) {
    json all = json::array();
    for (const AlgorithmRun& r : runs) all.push_back(algorithm_json(mesh, r));
    head["algorithms"] = all;
    print_json_result(std::move(head), cfg, wall);
    return 0;
  }
  if (o.rate > 0) print_load(o, runs);
  else print_trials(o, src, k, runs);
  for (const AlgorithmRun& r : runs)
    if (r.cosim->rtl) {
      fmt::print("{}: ", algorithm_name(r.algorithm));
      print_cosim(*r.cosim);
    }
  if (!o.load.pattern.empty())
    fmt::print("beside unicast {} load at {} flits/node/cycle ({}-flit packets)\n", o.load.pattern, o.load.rate,
               o.load.flits);
  fmt::print("wall time {:.3f} s\n", wall);
  return 0;
}

}  // namespace meshsync

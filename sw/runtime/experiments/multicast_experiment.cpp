#include "multicast_experiment.hpp"

#include <fmt/format.h>

#include "../../collective/member_spec.hpp"
#include "param_checks.hpp"

namespace meshsync {

namespace {

MulticastSettings settings_of(MulticastAlgorithm a, const MulticastParams& p) {
  MulticastSettings s;
  s.algorithm = a;
  s.prep = paper_prep_cycles(a);
  s.data_flits = static_cast<std::uint16_t>(p.flits);
  s.threshold = p.threshold;
  s.model = p.model;
  return s;
}

void check_params(const MulticastParams& p) {
  if (!(p.rate >= 0 && p.rate <= 1))
    throw ConfigError(fmt::format("--rate must be from 0 to 1 multicasts/node/cycle, got {}", p.rate));
  check_rate_expressible(p.rate, "--rate");
  if (p.rate > 0) {
    if (!p.source.empty())
      throw ConfigError("--src names the source of single multicasts; under --rate every node is a source");
    if (p.dests.rfind("random:", 0) != 0)
      throw ConfigError("under --rate each multicast draws its destinations: give --dests random:K");
    if (p.trials != 1) throw ConfigError("--trials counts single multicasts; under --rate --batches and --batch-size do");
  }
  check_distinct(p.algorithms, algorithm_name, "algorithm");
}

// One algorithm on a machine of its own: `measure(machine, service, run)` on the driver
// thread, after the unicast load's warm-up if there is one. `stop`: end the simulation
// when it returns, with multicasts still in flight (they were only load); with unicast
// load beside them everything drains instead, so that its packets are all measured.
template <class Measure>
MulticastAlgorithmRun simulate(MulticastAlgorithm a, const ValidConfig& cfg, const MulticastParams& p,
                               const MachineHook& hook, bool stop, Measure measure) {
  MulticastAlgorithmRun r;
  r.algorithm = a;
  ExperimentRun run(cfg, hook);
  if (!p.load.pattern.empty()) run.add_load(background_params(p.load, p.seed));
  Machine& m = run.machine();
  MulticastService svc(m, settings_of(a, p));
  const bool loaded = run.load() != nullptr;
  run.run([&] {
    if (loaded) m.mesh().wait_cycle(1 + static_cast<std::uint64_t>(p.load.warmup));
    measure(m, svc, r);
    if (!loaded && stop) m.stop();
  });
  if (!svc.errors().empty()) throw SimulationError("multicast delivery: " + svc.errors().front());
  if (loaded) r.background = run.load()->result();
  return r;
}

MulticastAlgorithmRun run_trials(MulticastAlgorithm a, const ValidConfig& cfg, const MulticastParams& p,
                                 const MachineHook& hook, const std::vector<MulticastCall>& calls) {
  MulticastAlgorithmRun r = simulate(a, cfg, p, hook, false, [&](Machine& m, MulticastService& svc, MulticastAlgorithmRun& out) {
    out.trials = run_in_turn(m, svc, calls);
  });
  const MulticastSettings s = settings_of(a, p);
  r.analytic_first = router_zero_load_arrivals(
      plan_multicast(a, cfg.mesh, calls[0].source, calls[0].dests, p.threshold, p.model.qg_routing), cfg.worm_timing(), s.prep,
      s.data_flits, cfg.router.ni_ports, p.model.addresses);
  return r;
}

MulticastAlgorithmRun run_load(MulticastAlgorithm a, const ValidConfig& cfg, const MulticastParams& p,
                               const MachineHook& hook, std::size_t destinations) {
  MulticastLoad l;
  l.rate = p.rate;
  l.destinations = destinations;
  l.warmup = static_cast<std::uint64_t>(p.warmup);
  l.batches = static_cast<std::uint64_t>(p.batches);
  l.batch_size = static_cast<std::uint64_t>(p.batch_size);
  l.backlog_per_node = static_cast<std::uint64_t>(p.backlog);
  l.seed = p.seed;  // the same multicasts (times, sources, destinations) for every algorithm
  MulticastAlgorithmRun r =
      simulate(a, cfg, p, hook, true, [&](Machine& m, MulticastService& svc, MulticastAlgorithmRun& out) {
        out.load = measure_multicast_load(m, svc, l);
      });
  // A network that deadlocked cannot finish the run, and what it measured before is of a
  // network on its way there: the run fails (exit 3) rather than report it as saturation.
  if (!r.load->deadlock.empty())
    throw SimulationError("deadlock of --algo " + algorithm_name(a) + ": " + r.load->deadlock);
  return r;
}

}  // namespace

double trials_avg(const MulticastAlgorithmRun& r, std::uint64_t (*field)(const MulticastRecord&)) {
  double sum = 0;
  for (const MulticastRecord& t : r.trials) sum += static_cast<double>(field(t));
  return sum / static_cast<double>(r.trials.size());
}

std::uint64_t trials_p99(const MulticastAlgorithmRun& r) {
  std::vector<std::uint64_t> v;
  for (const MulticastRecord& t : r.trials) v.push_back(t.latency());
  return percentile99(std::move(v));
}

MulticastResult run_multicast_experiment(const ValidConfig& cfg, const MulticastParams& p, const MachineHook& hook) {
  check_params(p);
  cfg.require_path_worms("multicast");
  const MeshShape& mesh = cfg.mesh;
  MulticastResult out;
  if (p.rate > 0) {
    out.destinations = parse_destinations(p.dests, mesh, 0, p.seed).size();  // checks K against the mesh
    check_worm_length(static_cast<std::uint64_t>(p.flits), out.destinations, p.model.addresses);
    for (MulticastAlgorithm a : p.algorithms) out.runs.push_back(run_load(a, cfg, p, hook, out.destinations));
    return out;
  }
  out.source = parse_node(p.source.empty() ? "0,0" : p.source, mesh, "source");
  std::vector<MulticastCall> calls;
  for (std::int64_t i = 0; i < p.trials; ++i) {
    MulticastCall c{out.source, parse_destinations(p.dests, mesh, out.source, p.seed + static_cast<std::uint64_t>(i))};
    check_multicast(mesh, out.source, c.dests);
    calls.push_back(std::move(c));
  }
  out.destinations = calls.front().dests.size();
  check_worm_length(static_cast<std::uint64_t>(p.flits), out.destinations, p.model.addresses);
  for (MulticastAlgorithm a : p.algorithms) out.runs.push_back(run_trials(a, cfg, p, hook, calls));
  return out;
}

}  // namespace meshsync

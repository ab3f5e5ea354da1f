#include "barrier_experiment.hpp"

#include "../../collective/member_spec.hpp"
#include "param_checks.hpp"

namespace meshsync {

namespace {

double mean_latency(const std::vector<BarrierRun>& runs) {
  double sum = 0;
  for (const BarrierRun& r : runs) sum += static_cast<double>(r.measured.latency_cycles);
  return sum / static_cast<double>(runs.size());
}

}  // namespace

double BarrierResult::speedup() const { return runs.size() == 2 ? mean_latency(runs[1]) / mean_latency(runs[0]) : 0; }

BarrierResult run_barrier_experiment(const NetworkConfig& cfg, const BarrierParams& p, const MachineHook& hook) {
  cfg.validate();
  check_distinct(p.schemes, scheme_name, "scheme");
  std::vector<std::vector<NodeId>> member_sets;
  for (std::int64_t i = 0; i < p.repeat; ++i)
    member_sets.push_back(parse_members(p.members, cfg.mesh, p.seed + static_cast<std::uint64_t>(i)));

  ExperimentRun run(cfg, hook);
  if (!p.load.pattern.empty()) run.add_load(background_params(p.load, p.seed));
  // Under load the barriers start once it has warmed up, from cycle 1 on.
  const std::uint64_t not_before = run.load() ? 1 + static_cast<std::uint64_t>(p.load.warmup) : 0;

  BarrierResult out;
  out.runs.resize(p.schemes.size());
  Machine& machine = run.machine();
  run.run([&] {
    for (std::size_t s = 0; s < p.schemes.size(); ++s)
      for (const auto& members : member_sets) {
        Communicator c = machine.groups().create(cfg.mesh, members, p.schemes[s]);
        const BarrierMeasurement m = measure_barrier(machine, c, not_before);
        out.runs[s].push_back(BarrierRun{c.tree->nodes().size(), cfg.mesh.coord(c.tree->root()), c.tree->height(),
                                         c.tree->analytic_cycles(cfg.timing), m});
        machine.groups().free(c);
      }
  });
  if (run.load()) out.load = run.load()->result();
  return out;
}

}  // namespace meshsync

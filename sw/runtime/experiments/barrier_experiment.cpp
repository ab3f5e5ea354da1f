#include "barrier_experiment.hpp"

#include <fmt/format.h>

#include "../../../model/core/parameters.hpp"

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

BarrierResult run_barrier_experiment(const ValidConfig& cfg, const BarrierParams& p, const MachineHook& hook) {
  check_distinct(p.schemes, scheme_name, "scheme");
  if (cfg.router.barrier_registers == 0 && !p.software_fallback)
    throw ConfigError("--registers 0 leaves the barrier tree no barrier register (add --software-fallback to measure "
                      "every member's register kept in node memory)");
  if (p.exact) {
    if (cfg.timing.trm < exact_trm_minimum(cfg.router))
      throw ConfigError(fmt::format("--exact needs --trm {} or more (5 + --max-children {} + 1: the barrier unit takes "
                                    "one of the five inputs' messages a cycle, the emitter stages one message a "
                                    "cycle), got {}",
                                    exact_trm_minimum(cfg.router), cfg.router.max_children, cfg.timing.trm));
    if (!p.load.pattern.empty()) throw ConfigError("--exact compares with the zero-load formula: leave out --load");
    if (p.software_fallback)
      throw ConfigError("--exact compares with the routers' formula: leave out --software-fallback");
  }
  std::vector<std::vector<NodeId>> member_sets;
  for (std::int64_t i = 0; i < p.repeat; ++i)
    member_sets.push_back(parse_members(p.members, cfg.mesh, p.seed + static_cast<std::uint64_t>(i)));
  // One member has nobody to wait for. It is also what a shell leaves of an unquoted
  // list: `--members 0,0;3,4` runs `--members 0,0`, then tries a command `3,4`.
  if (member_sets.front().size() < 2)
    throw ConfigError("a barrier needs at least 2 members, got '" + p.members +
                      "' (quote a list x,y;x,y in the shell, or separate its entries with '/': x,y/x,y)");

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
                                         c.tree->analytic_cycles(cfg.timing), m,
                                         p.exact ? c.tree->contention(cfg.timing, cfg.router.sync_buffer_depth)
                                                 : std::string()});
        machine.groups().free(c);
      }
  });
  if (run.load()) out.load = run.load()->result();
  return out;
}

void check_exact(const BarrierParams& p, const BarrierResult& r) {
  if (!p.exact) return;
  for (std::size_t s = 0; s < r.runs.size(); ++s)
    for (std::size_t i = 0; i < r.runs[s].size(); ++i) {
      const BarrierRun& b = r.runs[s][i];
      if (b.measured.latency_cycles == b.analytic_cycles) continue;
      // The formula is exact only where no two sync messages compete for a port (NOTES.md):
      // say which do, or, if none, that the model broke its contract.
      // Built before the throw, as in allreduce's check_exact.
      const std::string why = contention_note(b.contention, "sync messages", "docs/microarchitecture.md, \"Exactness\"");
      throw SimulationError(fmt::format("--exact: {} barrier {} took {} cycles, the formula says {}{}",
                                        scheme_name(p.schemes[s]), i + 1, b.measured.latency_cycles,
                                        b.analytic_cycles, why));
    }
}

}  // namespace meshsync

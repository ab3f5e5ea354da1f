#include "allreduce_experiment.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "../../../model/core/random.hpp"
#include "../../collective/member_spec.hpp"
#include "../../collective/tree_reduction.hpp"
#include "param_checks.hpp"

namespace meshsync {

std::vector<ReduceVector> allreduce_inputs(ElementType t, std::size_t ranks, std::size_t elements, std::uint64_t seed) {
  Random rng(seed);
  std::vector<ReduceVector> v(ranks, ReduceVector(elements * words_per_element(t)));
  for (ReduceVector& rank : v)
    for (std::uint32_t& w : rank) {
      if (t == ElementType::Float32) {
        w = word_of(static_cast<float>(static_cast<std::int64_t>(rng.below(1u << 24)) - (1 << 23)) / 1024.0f);
      } else {
        w = static_cast<std::uint32_t>(rng.below(std::uint64_t{1} << 32));
      }
    }
  return v;
}

namespace {

// Where `got` differs from `want`, or "".
std::string difference(const std::vector<ReduceVector>& got, const std::vector<ReduceVector>& want,
                       ElementType t, const char* what) {
  const std::size_t w = words_per_element(t);
  for (std::size_t r = 0; r < got.size(); ++r)
    for (std::size_t i = 0; i < got[r].size(); ++i)
      if (got[r][i] != want[r][i])
        return fmt::format("rank {} element {} differs from {}", r, i / w, what);
  return "";
}

}  // namespace

AllreduceExperimentResult run_allreduce_experiment(const ValidConfig& cfg, const AllreduceParams& p,
                                                   const MachineHook& hook) {
  check_reduction(p.op, p.type);
  check_distinct(p.algorithms, allreduce_algorithm_name, "algorithm");
  if (p.elements < 1) throw ConfigError("--elements must be at least 1");
  const auto words = static_cast<std::uint64_t>(p.elements) * words_per_element(p.type);
  if (words > kMaxReduceWords)
    throw ConfigError(fmt::format("--elements {} of {} is {} words, more than the {} one message carries (a worm "
                                  "of at most 65535 flits)",
                                  p.elements, element_type_name(p.type), words, kMaxReduceWords));
  AllreduceExperimentResult out;
  out.nodes = parse_members(p.comm, cfg.mesh, p.seed);
  if (out.nodes.size() < 2) throw ConfigError("--comm: an allreduce needs at least 2 ranks");
  const std::size_t P = out.nodes.size(), K = static_cast<std::size_t>(p.elements);
  out.inputs = allreduce_inputs(p.type, P, K, p.seed);
  out.rank_order = reduce_in_rank_order(p.op, p.type, out.inputs);
  const bool hardware = std::find(p.algorithms.begin(), p.algorithms.end(), AllreduceAlgorithm::Btm) != p.algorithms.end();
  if (hardware) cfg.require_reduction(static_cast<std::uint32_t>(words), "allreduce btm");
  if (p.exact) {
    if (!hardware) throw ConfigError("--exact compares btm with its formula: --algo must include btm");
    const auto w = static_cast<std::uint32_t>(words), k = static_cast<std::uint32_t>(p.elements);
    const std::uint32_t trm = exact_reduction_trm_minimum(cfg.router, w, k);
    if (cfg.timing.trm < trm)
      throw ConfigError(fmt::format("--exact needs --trm {} or more for {} {} elements (5L + 4K + 2 with L = {} flits, "
                                    "or the barrier's minimum), got {}",
                                    trm, p.elements, element_type_name(p.type), 2 + 2 * w, cfg.timing.trm));
    const std::uint32_t stream = std::min(2 + 2 * w, 2 * cfg.timing.tp + cfg.timing.trn + 1);
    if (cfg.router.sync_buffer_depth < stream)
      throw ConfigError(fmt::format("--exact needs --sync-buffer-depth {} or more (a reduction message streams a flit "
                                    "a cycle only with min(L, 2 tp + trn + 1) slots), got {}",
                                    stream, cfg.router.sync_buffer_depth));
  }
  ExperimentRun run(cfg, hook);
  Machine& m = run.machine();
  // Per algorithm its schedule; btm has none: the routers reduce along the ranks' tree.
  std::vector<ReduceSchedule> schedules;
  for (AllreduceAlgorithm a : p.algorithms)
    schedules.push_back(a == AllreduceAlgorithm::Btm ? ReduceSchedule{} : allreduce_schedule(a, P, K));
  out.runs.resize(p.algorithms.size());
  run.run([&] {
    for (std::size_t a = 0; a < schedules.size(); ++a)
      out.runs[a].run = p.algorithms[a] == AllreduceAlgorithm::Btm
                            ? run_in_network_reduction(m, out.nodes, p.op, p.type, out.inputs)
                            : run_allreduce(m, out.nodes, schedules[a], p.op, p.type, out.inputs);
  });
  const bool integer = p.type != ElementType::Float32;
  for (std::size_t a = 0; a < schedules.size(); ++a) {
    AllreduceAlgorithmRun& r = out.runs[a];
    r.algorithm = p.algorithms[a];
    const bool btm = r.algorithm == AllreduceAlgorithm::Btm;
    r.schedule_messages = btm ? 2 * (P - 1) : schedules[a].messages();
    if (btm) {
      const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, out.nodes);
      r.analytic_cycles = tree.analytic_allreduce_cycles(cfg.timing, static_cast<std::uint32_t>(words));
      if (p.exact)
        r.contention = tree.allreduce_contention(cfg.timing, cfg.router.sync_buffer_depth,
                                                 static_cast<std::uint32_t>(words));
    }
    if (!r.run.errors.empty()) {
      r.problem = r.run.errors.front();
    } else if (btm) {
      // The routers' order: children by slot, then the own vector, up the BTM tree.
      const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, out.nodes);
      r.problem = difference(r.run.results, std::vector<ReduceVector>(P, reduce_along_tree(tree, p.op, p.type, out.inputs)),
                             p.type, "the reduction along the BTM tree");
    } else {
      r.problem = difference(r.run.results, evaluate(schedules[a], p.op, p.type, out.inputs), p.type,
                             "the schedule run without a network");
    }
    if (r.problem.empty() && integer)
      r.problem = difference(r.run.results, std::vector<ReduceVector>(P, out.rank_order), p.type, "the exact reduction");
    r.correct = r.problem.empty();
  }
  return out;
}

void check_exact(const AllreduceParams& p, const AllreduceExperimentResult& x) {
  if (!p.exact) return;
  for (const AllreduceAlgorithmRun& r : x.runs)
    if (r.algorithm == AllreduceAlgorithm::Btm && r.run.latency() != r.analytic_cycles) {
      // The formula is exact only where no two reduction messages compete for a port
      // (NOTES.md): say which do, or, if none, that the model broke its contract.
      // Built before the throw: temporaries of a throw expression end after the exception
      // is made, and under ASan their scope's poison would outlive the unwinding.
      const std::string why = contention_note(r.contention, "reduction messages", "docs/reduction-hardware.md, \"Timing\"");
      throw SimulationError(fmt::format("--exact: allreduce btm took {} cycles, the formula says {}{}", r.run.latency(),
                                        r.analytic_cycles, why));
    }
}

}  // namespace meshsync

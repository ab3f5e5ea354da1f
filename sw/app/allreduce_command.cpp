// `meshsync allreduce`: an allreduce over a communicator's ranks, in the routers (btm) and
// with each software algorithm, every rank's result checked (docs/reduction.md).
#include "allreduce_command.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../model/core/errors.hpp"
#include "cosim_attach.hpp"
#include "../collective/member_spec.hpp"
#include "memory_check.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"
#include "trace_session.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

// Ranks up to this many list their input and result vectors in the JSON.
constexpr std::size_t kListedRanks = 64;

// A vector's elements as JSON numbers: signed integers, or floats.
json allreduce_elements_json(const ReduceVector& v, ElementType t) {
  json out = json::array();
  const std::size_t w = words_per_element(t);
  for (std::size_t i = 0; i < v.size(); i += w) switch (t) {
      case ElementType::Int32: out.push_back(static_cast<std::int32_t>(v[i])); break;
      case ElementType::Int64: out.push_back(int64_of(&v[i])); break;
      case ElementType::Float32: out.push_back(float32_of(v[i])); break;
    }
  return out;
}

json allreduce_run_json(const AllreduceExperimentResult& x, const AllreduceAlgorithmRun& r, const MeshShape& mesh,
              ElementType t, bool per_rank) {
  json j{{"algorithm", allreduce_algorithm_name(r.algorithm)},
         {"latency_cycles", r.run.latency()},
         {"messages", r.run.messages},
         {"flits", r.run.flits},
         {"hops", r.run.hops},
         {"check", json{{"passed", r.correct}, {"problem", r.problem}}}};
  if (r.algorithm == AllreduceAlgorithm::Btm) j["analytic_cycles"] = r.analytic_cycles;
  if (per_rank) {
    json ranks = json::array();
    for (std::size_t k = 0; k < r.run.ranks.size(); ++k) {
      json rank{{"node", mesh.coord(r.run.ranks[k].node)}, {"completion_cycle", r.run.ranks[k].completion}};
      if (x.nodes.size() <= kListedRanks) {
        rank["input"] = allreduce_elements_json(x.inputs[k], t);
        rank["result"] = allreduce_elements_json(r.run.results[k], t);
      }
      ranks.push_back(rank);
    }
    j["ranks"] = ranks;
  }
  return j;
}

void print_allreduce_table(const AllreduceOptions& o, const AllreduceExperimentResult& x) {
  const NetworkConfig& cfg = o.net.config;
  const AllreduceParams& p = o.params;
  fmt::print("allreduce ({}) of {} {} element{} over {} ranks on a {}x{} mesh  ts={} tp={} trn={}\n",
             reduce_op_name(p.op), p.elements, element_type_name(p.type), p.elements == 1 ? "" : "s", x.nodes.size(),
             cfg.mesh.width, cfg.mesh.height, cfg.timing.ts, cfg.timing.tp, cfg.timing.trn);
  fmt::print("{:>18} {:>14} {:>9} {:>9} {:>8}  {}\n", "algo", "latency [cyc]", "messages", "flits", "hops", "check");
  for (const AllreduceAlgorithmRun& r : x.runs) {
    fmt::print("{:>18} {:>14} {:>9} {:>9} {:>8}  {}\n", allreduce_algorithm_name(r.algorithm), r.run.latency(),
               r.run.messages, r.run.flits, r.run.hops, r.correct ? "passed" : "FAILED: " + r.problem);
    if (o.per_rank)
      for (std::size_t k = 0; k < r.run.ranks.size(); ++k)
        fmt::print("    rank {:>5} ({},{})  completion {:>8}\n", k, cfg.mesh.coord(r.run.ranks[k].node).x,
                   cfg.mesh.coord(r.run.ranks[k].node).y, r.run.ranks[k].completion);
  }
}

}  // namespace

int run_allreduce_command(const AllreduceOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const ValidConfig cfg(o.net.config);  // the one validation (ValidConfig)
  const AllreduceParams& p = o.params;
  const Cosim* cosim_kept = nullptr;
  // Every rank keeps its vector, and its messages' copies travel through the scoreboard.
  const std::uint64_t ranks = member_count(p.comm, cfg.mesh);
  const std::uint64_t bytes = 4 * words_per_element(p.type) * static_cast<std::uint64_t>(std::max<std::int64_t>(p.elements, 0));
  const MemoryUse use{routers_for_collective(cfg.mesh, ranks), 4 * bytes * ranks};
  TraceSession trace(o.net);
  ProgressBar bar("allreduce", "cycles", progress_wanted(o.net.progress, o.json));
  const AllreduceExperimentResult x = run_allreduce_experiment(cfg, p, [&](Machine& m) {
    cosim_kept = new Cosim(attach_network(m, o.net, p.seed, trace, use));
    follow_cycles(m, bar);
  });
  bar.finish();
  const int code = report(
      o.json, *cosim_kept, seconds_since(wall0),
      [&](double wall) {
        json algos = json::array();
        for (const AllreduceAlgorithmRun& r : x.runs)
          algos.push_back(allreduce_run_json(x, r, cfg.mesh, p.type, o.per_rank || x.nodes.size() <= kListedRanks));
        json j{{"ranks", x.nodes.size()}, {"comm", p.comm},       {"op", reduce_op_name(p.op)},
               {"type", element_type_name(p.type)}, {"elements", p.elements}, {"seed", p.seed},
               {"algorithms", algos}};
        print_json(std::move(j), cfg, *cosim_kept, wall);
      },
      [&] { print_allreduce_table(o, x); });
  // A wrong result is the run's failure (exit 3), after the output that shows it.
  for (const AllreduceAlgorithmRun& r : x.runs)
    if (!r.correct) throw SimulationError("allreduce " + allreduce_algorithm_name(r.algorithm) + ": " + r.problem);
  check_exact(p, x);
  return code;
}

}  // namespace meshsync

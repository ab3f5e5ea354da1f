// `meshsync adaptive-tree`: the table or JSON of the swapping or churn experiment.
#include "adaptive_tree_command.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "memory_check.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;
using namespace adaptive;

namespace {

json swapping_json(const std::vector<SwappingPoint>& points) {
  json out = json::array();
  for (const SwappingPoint& pt : points)
    out.push_back(json{{"cost_factor", pt.cost_factor}, {"swapping", swapping_name(pt.swapping)},
                       {"raised", pt.raised}, {"gain", pt.gain}, {"steps", pt.steps},
                       {"benefit", pt.benefit()}, {"reached_target", pt.reached_target}});
  return out;
}

json churn_json(const std::vector<ChurnPoint>& points) {
  json out = json::array();
  for (const ChurnPoint& pt : points)
    out.push_back(json{{"policy", churn_policy_name(pt.policy)}, {"final_cost", pt.final_cost},
                       {"mean_cost", pt.mean_cost}, {"steps", pt.steps}});
  return out;
}

std::string swapping_table(const std::vector<SwappingPoint>& points) {
  std::string table = fmt::format("{:>11} {:>9} {:>7} {:>7} {:>8} {:>9} {:>8}\n", "cost factor", "swapping",
                                  "raised", "gain", "steps", "benefit", "reached");
  for (const SwappingPoint& pt : points)
    table += fmt::format("{:>11} {:>9} {:>7} {:>7.3f} {:>8.2f} {:>9.4f} {:>7.1f}%\n", pt.cost_factor,
                         swapping_name(pt.swapping), pt.raised, pt.gain, pt.steps, pt.benefit(),
                         100 * pt.reached_target);
  return table;
}

std::string churn_table(const std::vector<ChurnPoint>& points) {
  std::string table = fmt::format("{:>18} {:>11} {:>10} {:>8}\n", "policy", "final cost", "mean cost", "steps");
  for (const ChurnPoint& pt : points)
    table += fmt::format("{:>18} {:>11.2f} {:>10.2f} {:>8.2f}\n", churn_policy_name(pt.policy), pt.final_cost,
                         pt.mean_cost, pt.steps);
  return table;
}

}  // namespace

int run_adaptive_tree(const AdaptiveTreeOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const AdaptiveTreeParams& p = o.params;
  // The distance matrix: every node to every node, 4 bytes each; churn's joins are new nodes.
  const auto matrix_nodes = static_cast<std::uint64_t>(p.nodes + (p.experiment == "churn" ? p.operations : 0));
  if (o.memory_check)
    check_memory(matrix_nodes * matrix_nodes * 4, fmt::format("a distance matrix of {} nodes", matrix_nodes));
  const AdaptiveTreeResult r = run_adaptive_tree_experiment(p);
  const bool swapping = p.experiment == "swapping";
  const double wall = seconds_since(wall0);
  if (o.json) {
    json j{{"experiment", p.experiment}, {"nodes", p.nodes}, {"max_distance", p.max_distance}, {"seed", p.seed}};
    if (swapping) {
      j["topologies"] = p.topologies;
      j["points"] = swapping_json(r.swapping);
    } else {
      j["trees"] = p.trees;
      j["operations"] = p.operations;
      j["points"] = churn_json(r.churn);
    }
    print_json_result(std::move(j), wall);
    return 0;
  }
  fmt::print("adaptive binomial tree, {} experiment: {} nodes, distances uniform in [0, {}], seed {}\n", p.experiment,
             p.nodes, p.max_distance, p.seed);
  fmt::print("{}wall time {:.3f} s\n", swapping ? swapping_table(r.swapping) : churn_table(r.churn), wall);
  return 0;
}

}  // namespace meshsync

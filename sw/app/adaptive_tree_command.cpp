// `meshsync adaptive-tree`: the table or JSON of the swapping or churn experiment.
#include "adaptive_tree_command.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/tree_steps.hpp"
#include "distance_file.hpp"
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

json state_json(const TreeState& t) {
  json leaves = json::array();
  for (const auto& [node, cost] : t.leaves) leaves.push_back(json{{"node", node}, {"path_cost", cost}});
  return json{{"placement", t.placement}, {"leaves", leaves}, {"cost", t.cost}};
}

// The paper's tables: positions and their nodes, then each leaf with its path cost.
std::string state_text(const TreeState& t) {
  std::string positions = "  position", nodes = "  node    ";
  for (std::size_t p = 0; p < t.placement.size(); ++p) {
    positions += fmt::format(" {:>3}", p);
    nodes += fmt::format(" {:>3}", t.placement[p]);
  }
  std::string leaves = "  leaves (node:path cost)";
  for (const auto& [node, cost] : t.leaves) leaves += fmt::format(" {}:{}", node, cost);
  return fmt::format("{}\n{}\n{}\n  cost {}\n", positions, nodes, leaves, t.cost);
}

// `--distances`: the Balanced-Path tree of the user's matrix and each step after it.
int run_walkthrough(const AdaptiveTreeOptions& o, std::chrono::steady_clock::time_point wall0) {
  DistanceMatrix d = read_distance_file(o.distances);
  const Swapping swapping = parse_swapping(o.swapping);
  const Walkthrough w = walk_tree(d, static_cast<adaptive::Node>(o.root), parse_tree_steps(o.steps, d.size()), swapping,
                                  parse_search_reading(o.params.reading));
  if (o.json) {
    json steps = json::array();
    for (const StepReport& r : w.steps) {
      json trials = json::array();
      for (const SwapTrial& t : r.search.trials)
        trials.push_back(json{{"swap", {t.swap.first, t.swap.second}}, {"cost", t.cost}});
      json j{{"step", r.step.text()}, {"cost_before", r.target}, {"trials", trials},
             {"kept", r.search.applied ? json{r.search.applied->first, r.search.applied->second} : json(nullptr)},
             {"reached_target", r.search.reached_target}};
      if (r.moved) j["moved"] = *r.moved;
      if (r.before_search) j["before_search"] = state_json(*r.before_search);
      j.update(state_json(r.after));
      steps.push_back(j);
    }
    json j{{"experiment", "steps"}, {"distances", o.distances}, {"nodes", d.size()}, {"root", o.root},
           {"swapping", o.swapping}, {"reading", o.params.reading}, {"balanced_path", state_json(w.balanced_path)}, {"steps", steps}};
    print_json_result(std::move(j), seconds_since(wall0));
    return 0;
  }
  fmt::print("Balanced-Path tree of {} ({} nodes), root {}\n{}", o.distances, d.size(), o.root,
             state_text(w.balanced_path));
  for (std::size_t k = 0; k < w.steps.size(); ++k) {
    const StepReport& r = w.steps[k];
    fmt::print("step {}: {} (cost before {})\n", k + 1, r.step.text(), r.target);
    if (r.moved) fmt::print("  node {} moves into the hole\n", *r.moved);
    if (r.before_search) fmt::print("{}", state_text(*r.before_search));
    const bool searched = r.step.kind != TreeStep::Kind::Swap;
    if (searched && r.search.trials.empty()) fmt::print("  no search: the cost did not rise\n");
    for (const SwapTrial& t : r.search.trials)
      fmt::print("  trial ({},{}): cost {}{}\n", t.swap.first, t.swap.second, t.cost,
                 r.search.applied == t.swap ? (r.search.reached_target ? ", kept: at or below the target"
                                                                       : ", kept: the cheapest, below the cost before")
                                            : "");
    if (searched && !r.search.trials.empty() && !r.search.applied) fmt::print("  no trial lowered the cost: none kept\n");
    fmt::print("{}", state_text(r.after));
  }
  return 0;
}

}  // namespace

int run_adaptive_tree(const AdaptiveTreeOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  if (!o.distances.empty()) return run_walkthrough(o, wall0);
  const AdaptiveTreeParams& p = o.params;
  // The distance matrix: every node to every node, 4 bytes each; churn's joins are new nodes.
  const auto matrix_nodes = static_cast<std::uint64_t>(p.nodes + (p.experiment == "churn" ? p.operations : 0));
  if (o.memory_check)
    check_memory(matrix_nodes * matrix_nodes * 4, fmt::format("a distance matrix of {} nodes", matrix_nodes));
  const AdaptiveTreeResult r = run_adaptive_tree_experiment(p);
  const bool swapping = p.experiment == "swapping";
  const double wall = seconds_since(wall0);
  if (o.json) {
    json j{{"experiment", p.experiment}, {"nodes", p.nodes}, {"max_distance", p.max_distance}, {"seed", p.seed},
           {"reading", p.reading}};
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
  fmt::print("adaptive binomial tree, {} experiment: {} nodes, distances uniform in [0, {}], seed {}, reading {}\n",
             p.experiment, p.nodes, p.max_distance, p.seed, p.reading);
  fmt::print("{}wall time {:.3f} s\n", swapping ? swapping_table(r.swapping) : churn_table(r.churn), wall);
  return 0;
}

}  // namespace meshsync

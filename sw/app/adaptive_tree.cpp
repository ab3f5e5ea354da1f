// `meshsync adaptive-tree`: Figueira & Mendes' swapping and churn experiments (section 5)
// on random distance matrices, as in the paper: no mesh, no simulation
// (docs/broadcast.md).
#include <chrono>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/swapping_experiment.hpp"
#include "commands.hpp"

namespace meshsync {

using nlohmann::json;
using namespace adaptive;

int run_adaptive_tree(const AdaptiveTreeOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  if (o.experiment != "swapping" && o.experiment != "churn")
    throw ConfigError("--experiment '" + o.experiment + "': expected swapping or churn");
  json j{{"experiment", o.experiment}, {"nodes", o.nodes}, {"max_distance", o.max_distance}, {"seed", o.seed}};
  std::string table;
  if (o.experiment == "swapping") {
    SwappingParams p;
    p.nodes = static_cast<std::size_t>(o.nodes);
    p.max_distance = static_cast<std::uint32_t>(o.max_distance);
    p.cost_factors.assign(o.cost_factors.begin(), o.cost_factors.end());
    p.topologies = static_cast<std::size_t>(o.topologies);
    p.seed = o.seed;
    json points = json::array();
    table = fmt::format("{:>11} {:>9} {:>7} {:>7} {:>8} {:>9} {:>8}\n", "cost factor", "swapping", "raised",
                        "gain", "steps", "benefit", "reached");
    for (const SwappingPoint& pt : run_swapping_experiment(p)) {
      points.push_back(json{{"cost_factor", pt.cost_factor}, {"swapping", swapping_name(pt.swapping)},
                            {"raised", pt.raised}, {"gain", pt.gain}, {"steps", pt.steps},
                            {"benefit", pt.benefit()}, {"reached_target", pt.reached_target}});
      table += fmt::format("{:>11} {:>9} {:>7} {:>7.3f} {:>8.2f} {:>9.4f} {:>7.1f}%\n", pt.cost_factor,
                           swapping_name(pt.swapping), pt.raised, pt.gain, pt.steps, pt.benefit(),
                           100 * pt.reached_target);
    }
    j["topologies"] = o.topologies;
    j["points"] = points;
  } else {
    ChurnParams p;
    p.nodes = static_cast<std::size_t>(o.nodes);
    p.max_distance = static_cast<std::uint32_t>(o.max_distance);
    p.trees = static_cast<std::size_t>(o.trees);
    p.operations = static_cast<std::size_t>(o.operations);
    p.seed = o.seed;
    json points = json::array();
    table = fmt::format("{:>18} {:>11} {:>10} {:>8}\n", "policy", "final cost", "mean cost", "steps");
    for (const ChurnPoint& pt : run_churn_experiment(p)) {
      points.push_back(json{{"policy", churn_policy_name(pt.policy)}, {"final_cost", pt.final_cost},
                            {"mean_cost", pt.mean_cost}, {"steps", pt.steps}});
      table += fmt::format("{:>18} {:>11.2f} {:>10.2f} {:>8.2f}\n", churn_policy_name(pt.policy), pt.final_cost,
                           pt.mean_cost, pt.steps);
    }
    j["trees"] = o.trees;
    j["operations"] = o.operations;
    j["points"] = points;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (o.json) {
    j["commit"] = MESHSYNC_COMMIT;
    j["wall_seconds"] = wall;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  fmt::print("adaptive binomial tree, {} experiment: {} nodes, distances uniform in [0, {}], seed {}\n", o.experiment,
             o.nodes, o.max_distance, o.seed);
  fmt::print("{}wall time {:.3f} s\n", table, wall);
  return 0;
}

}  // namespace meshsync

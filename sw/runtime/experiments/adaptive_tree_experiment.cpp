#include "adaptive_tree_experiment.hpp"

#include "../../../model/core/errors.hpp"

namespace meshsync {

using namespace adaptive;

AdaptiveTreeResult run_adaptive_tree_experiment(const AdaptiveTreeParams& o) {
  if (o.experiment != "swapping" && o.experiment != "churn")
    throw ConfigError("--experiment '" + o.experiment + "': expected swapping or churn");
  AdaptiveTreeResult out;
  if (o.experiment == "swapping") {
    SwappingParams p;
    p.nodes = static_cast<std::size_t>(o.nodes);
    p.max_distance = static_cast<std::uint32_t>(o.max_distance);
    p.cost_factors.assign(o.cost_factors.begin(), o.cost_factors.end());
    p.topologies = static_cast<std::size_t>(o.topologies);
    p.seed = o.seed;
    p.reading = parse_search_reading(o.reading);
    out.swapping = run_swapping_experiment(p);
  } else {
    ChurnParams p;
    p.nodes = static_cast<std::size_t>(o.nodes);
    p.max_distance = static_cast<std::uint32_t>(o.max_distance);
    p.trees = static_cast<std::size_t>(o.trees);
    p.operations = static_cast<std::size_t>(o.operations);
    p.seed = o.seed;
    p.reading = parse_search_reading(o.reading);
    out.churn = run_churn_experiment(p);
  }
  return out;
}

}  // namespace meshsync

// `meshsync adaptive-tree`: Figueira & Mendes' swapping (Figs. 7, 8) and churn (Fig. 9)
// experiments (section 5) on random distance matrices, as in the paper: no mesh, no
// simulation (docs/broadcast.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../../collective/swapping_experiment.hpp"

namespace meshsync {

struct AdaptiveTreeParams {
  std::string experiment = "swapping";  // swapping (Figs. 7, 8) | churn (Fig. 9)
  std::int64_t nodes = 1024;
  std::int64_t max_distance = 10;
  std::vector<std::int64_t> cost_factors{5, 10, 20, 30, 40};
  std::int64_t topologies = 1000;  // swapping
  std::int64_t trees = 100;        // churn
  std::int64_t operations = 1000;  // churn
  std::uint64_t seed = 1;
  std::string reading = "guarded";  // SearchReading: guarded | paper
};

struct AdaptiveTreeResult {
  std::vector<adaptive::SwappingPoint> swapping;  // the swapping experiment's points
  std::vector<adaptive::ChurnPoint> churn;        // the churn experiment's
};

// Throws ConfigError for an unknown experiment.
AdaptiveTreeResult run_adaptive_tree_experiment(const AdaptiveTreeParams& p);

}  // namespace meshsync

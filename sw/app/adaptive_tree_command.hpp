// `meshsync adaptive-tree`: Figueira & Mendes' experiments on random distance matrices
// (Figs. 7-9), no simulation.
#pragma once

#include "../runtime/experiments/adaptive_tree_experiment.hpp"

namespace meshsync {

struct AdaptiveTreeOptions {
  AdaptiveTreeParams params;  // written by the CLI
  bool json = false;
  bool memory_check = true;  // off: run even when the distance matrix may not fit
  // A worked example on a matrix of one's own (tree_steps.hpp), instead of an experiment.
  std::string distances;  // the CSV file
  std::int64_t root = 0;
  std::string steps;
  std::string swapping = "path";
};
int run_adaptive_tree(const AdaptiveTreeOptions& o);

}  // namespace meshsync

// Figueira & Mendes' experiments (section 5, NOTES-broadcast A6) on random distance
// matrices, without the simulator: the gain and steps of each swapping strategy when one
// tree edge gets dearer (Figs. 7 and 8), and the tree's cost under nodes joining and
// leaving (Fig. 9).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tree_swapping.hpp"

namespace meshsync::adaptive {

// A symmetric matrix of `nodes` nodes, every distance uniform in [0, max_distance] [R].
DistanceMatrix random_distances(std::size_t nodes, std::uint32_t max_distance, std::uint64_t seed);

struct SwappingParams {
  std::size_t nodes = 1024;
  std::uint32_t max_distance = 10;
  std::vector<std::uint32_t> cost_factors{5, 10, 20, 30, 40};
  std::size_t topologies = 1000;
  std::uint64_t seed = 1;
  SearchReading reading = SearchReading::Guarded;
};

// One (cost factor, strategy) point, averaged over the topologies in which the increase
// raised the tree's cost (elsewhere there is nothing to adapt).
struct SwappingPoint {
  std::uint32_t cost_factor = 0;
  Swapping swapping = Swapping::Path;
  std::size_t raised = 0;          // topologies whose tree cost rose
  double gain = 0;                 // mean (increased - new) / increased
  double steps = 0;                // mean trials
  double reached_target = 0;       // fraction back at the cost before the increase
  double benefit() const { return steps > 0 ? gain / steps : 0; }
};

// Per topology: a Balanced-Path tree (root node 0), then for each cost factor f one random
// tree edge a -> b gets d(a,b) += f (additive: multiplying would leave the 0-distance edges
// Balanced-Path prefers unchanged [R]), and each strategy adapts a copy of the tree.
std::vector<SwappingPoint> run_swapping_experiment(const SwappingParams& p);

struct ChurnParams {
  std::size_t nodes = 1024;
  std::uint32_t max_distance = 10;
  std::size_t trees = 100;
  std::size_t operations = 1000;  // random joins or leaves, half and half
  std::uint64_t seed = 1;
  SearchReading reading = SearchReading::Guarded;
};

// What a policy adapts with: nothing, or (join strategy, leave strategy). Joins always use
// Position_Swapping (A4).
enum class ChurnPolicy { None, PositionPath, PositionPosition };
std::string churn_policy_name(ChurnPolicy p);

struct ChurnPoint {
  ChurnPolicy policy = ChurnPolicy::None;
  double final_cost = 0;  // mean over the trees of the cost after all operations
  double mean_cost = 0;   // mean over trees and operations of the cost after each
  double steps = 0;       // mean trials per operation
};

// Every policy sees the same trees and the same sequence of joins and leaves.
std::vector<ChurnPoint> run_churn_experiment(const ChurnParams& p);

}  // namespace meshsync::adaptive

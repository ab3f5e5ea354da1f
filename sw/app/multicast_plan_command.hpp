// `meshsync multicast-plan`: the worms of path-based multicasts, without simulating them
// (like `tree` for barriers).
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "../../model/core/config.hpp"
#include "../collective/path_multicast.hpp"

namespace meshsync {

struct MulticastPlanOptions {
  MeshShape mesh = NetworkConfig{}.mesh;
  std::string source = "0,0";
  std::string dests = "random:10";
  std::vector<MulticastAlgorithm> algorithms{std::begin(kAllMulticastAlgorithms),
                                             std::end(kAllMulticastAlgorithms)};
  double threshold = 0.5;
  MulticastTiming timing;  // prep: each algorithm's own (paper_prep_cycles)
  std::uint64_t seed = 1;
  bool json = false;
};
int run_multicast_plan(const MulticastPlanOptions& o);

}  // namespace meshsync

// `meshsync tree`: the barrier tree and every member's register, without simulating.
#pragma once

#include <cstdint>
#include <string>

#include "../../model/core/config.hpp"
#include "../collective/barrier_tree.hpp"

namespace meshsync {

struct TreeOptions {
  MeshShape mesh = NetworkConfig{}.mesh;
  std::string members = "all";
  BarrierScheme scheme = BarrierScheme::BTM;
  std::uint64_t seed = 1;
  bool json = false;
  bool dot = false;
};
int run_tree(const TreeOptions& o);

}  // namespace meshsync

// One configuration object for everything that is a design choice of the router or a
// timing parameter of the papers. The CLI, YAML files and tests all fill this struct;
// nothing else in the code holds a timing constant. The router and timing parameters,
// and the table that names them, are in parameters.hpp.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "errors.hpp"
#include "geometry.hpp"
#include "parameters.hpp"

namespace meshsync {

struct NetworkConfig {
  MeshShape mesh{8, 8};
  Timing timing;
  RouterParams router;
  // A busy network in which no flit moves for this many cycles is reported as deadlocked.
  std::uint64_t deadlock_cycles = 100000;

  // Throws ConfigError naming the first problem found.
  void validate() const;
  // The timing a worm's head sees: a router costs it t_rn and the allocation pipeline's
  // head stages (docs/microarchitecture.md), what the worm formulas take as t_rn.
  Timing worm_timing() const {
    Timing t = timing;
    t.trn += router.head_stages();
    return t;
  }

  // What a run asks of the router it was given: ConfigError naming the parameter that left
  // the feature out (or sized it too small). `what` names the run's part that needs it.
  void require_path_worms(const std::string& what) const {
    if (router.path_worms == 0) throw ConfigError(what + " needs multidestination worms, but --path-worms is off");
  }
  void require_tree_vc(std::uint32_t worm_flits, const std::string& what) const {
    if (router.tree_buffer_depth == 0) throw ConfigError(what + " needs the tree VC, but --tree-buffer-depth is 0");
    if (worm_flits > router.tree_buffer_depth)
      throw ConfigError(what + ": a tree worm of " + std::to_string(worm_flits) +
                        " flits is longer than --tree-buffer-depth " + std::to_string(router.tree_buffer_depth));
  }
  // An in-network reduction of `words` words (docs/reduction-hardware.md).
  void require_reduction(std::uint32_t words, const std::string& what) const {
    if (router.reduce_words == 0) throw ConfigError(what + " needs reduction lanes, but --reduce-words is 0");
    if (router.barrier_registers == 0) throw ConfigError(what + " needs barrier registers, but --registers is 0");
    if (words > router.reduce_words)
      throw ConfigError(what + ": " + std::to_string(words) + " words are more than --reduce-words " +
                        std::to_string(router.reduce_words));
  }
};

inline void NetworkConfig::validate() const {
  const auto fail = [](const std::string& m) { throw ConfigError(m); };
  if (mesh.width < 1 || mesh.height < 1 || mesh.nodes() < 2)
    fail("mesh must have at least 2 nodes, got " + std::to_string(mesh.width) + "x" +
         std::to_string(mesh.height));
  if (mesh.width > 1024 || mesh.height > 1024)
    fail("mesh side larger than 1024 is not supported, got " + std::to_string(mesh.width) + "x" +
         std::to_string(mesh.height));
  // Each parameter's range, from the table (parameters.hpp).
  for (const Parameter& p : kParameters)
    if (const std::string m = parameter_error(p, p.of(*this)); !m.empty()) fail(m);
  const std::uint64_t slowest = 2ull * (timing.tp + timing.trn + timing.trm) + timing.ts;
  if (deadlock_cycles <= slowest)
    fail("deadlock-cycles must exceed " + std::to_string(slowest) +
         " (longer than any legitimate wait)");
}

// A configuration that validate() accepted. It is validated once, where it is made from a
// NetworkConfig (the boundary: the command line, a test's setup; the conversion is
// implicit), and passed down as it is: the experiments, the machine and the network core
// take a ValidConfig and do not validate it again. Hold it const: a changed configuration
// is a new NetworkConfig, validated when it becomes a ValidConfig.
struct ValidConfig : NetworkConfig {
  ValidConfig(const NetworkConfig& c) : NetworkConfig(c) { validate(); }  // NOLINT(google-explicit-constructor)
};

}  // namespace meshsync

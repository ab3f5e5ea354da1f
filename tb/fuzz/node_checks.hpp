// Invariants of a parsed node list (member_spec.hpp), shared by the member and CLI targets.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "model/core/config.hpp"

namespace meshsync::fuzz {

inline std::string shape(const MeshShape& m) { return std::to_string(m.width) + "x" + std::to_string(m.height); }

// Sorted, no duplicate, every node inside the mesh; "random:N" gives exactly N.
inline void check_nodes(const std::vector<NodeId>& nodes, const MeshShape& mesh, const std::string& spec) {
  MESHSYNC_FUZZ_CHECK(!nodes.empty(), spec);
  MESHSYNC_FUZZ_CHECK(std::is_sorted(nodes.begin(), nodes.end()), spec);
  MESHSYNC_FUZZ_CHECK(std::adjacent_find(nodes.begin(), nodes.end()) == nodes.end(), "duplicate in " + spec);
  for (NodeId n : nodes)
    MESHSYNC_FUZZ_CHECK(n < static_cast<NodeId>(mesh.nodes()), spec + " on " + shape(mesh));
  if (spec.rfind("random:", 0) == 0)
    MESHSYNC_FUZZ_CHECK(static_cast<long>(nodes.size()) == std::stol(spec.substr(7)), spec);
}

// Runs a parser on input that may be bad: ConfigError is the only way out other than
// success.
template <class Parse>
void expect_config_error_or_success(Parse parse) {
  try {
    parse();
  } catch (const ConfigError&) {
  }
}

}  // namespace meshsync::fuzz

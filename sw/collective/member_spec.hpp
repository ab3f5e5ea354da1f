// Member lists as users write them: `all`, `random:N` (seeded) or `x,y;x,y;...`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../../model/core/geometry.hpp"

namespace meshsync {

// Parses a mesh size "WxH"; throws ConfigError on anything else.
MeshShape parse_mesh(const std::string& text);
// Parses a member SPEC; throws ConfigError naming the problem (outside the mesh,
// duplicate, malformed, too many). The result is sorted by node id.
std::vector<NodeId> parse_members(const std::string& spec, const MeshShape& mesh, std::uint64_t seed);
// Parses a list of coordinates `x,y;x,y` or `all` (for --rtl style options).
std::vector<NodeId> parse_positions(const std::string& spec, const MeshShape& mesh, const std::string& what);

}  // namespace meshsync

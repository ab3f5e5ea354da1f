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
// How many members a SPEC names, without drawing them (`all`, `random:N`) and so without
// a seed; an explicit list is parsed (and checked) as parse_members does.
std::size_t member_count(const std::string& spec, const MeshShape& mesh);
// Destinations of a multicast from `source`: `random:K` (K of the other nodes, seeded) or
// `x,y;x,y;...`. Throws ConfigError naming the problem; the source among explicit
// destinations is left to check_multicast (path_multicast.hpp).
std::vector<NodeId> parse_destinations(const std::string& spec, const MeshShape& mesh, NodeId source,
                                       std::uint64_t seed);
// One node "x,y"; `what` names it in messages.
NodeId parse_node(const std::string& spec, const MeshShape& mesh, const std::string& what);
// Parses a list of coordinates `x,y;x,y` or `all` (for --rtl style options).
std::vector<NodeId> parse_positions(const std::string& spec, const MeshShape& mesh, const std::string& what);

}  // namespace meshsync

// The Hamiltonian (snake) labelling of Lin and Ni, the base routing of the path-based
// multicasts DP, MP and QG (NOTES-multicast.md section 2): row 0 runs east, row 1 west,
// and so on. The high-channel subnetwork Hu holds the channels from a lower to a higher
// label, the low-channel subnetwork Hl the others; a worm stays in one of them, so labels
// rise (or fall) strictly along it and no two worms can wait on each other in a cycle.
#pragma once

#include <vector>

#include "geometry.hpp"

namespace meshsync {

// l(x, y) = yW + x on even rows, yW + W-1-x on odd rows.
int snake_label(const MeshShape& mesh, Coord c);
Coord snake_node(const MeshShape& mesh, int label);

enum class Subnetwork { High, Low };  // Hu, Hl

// The next node from `here` towards `dest` inside subnetwork `s` (the paper's routing
// with short cuts): in Hu the neighbour with the largest label not above l(dest), in Hl
// the one with the smallest label not below it. `dest` must lie ahead in `s` (l(dest) >
// l(here) for Hu, < for Hl).
Coord snake_next(const MeshShape& mesh, Coord here, Coord dest, Subnetwork s);
// The same step as the output port a router takes (Local when `here` is `dest`).
Port snake_port(const MeshShape& mesh, Coord here, Coord dest, Subnetwork s);

// Nodes visited from `from` (excluded) to `to` (included) by snake_next: a minimal path
// inside the bounding box of the two ends.
std::vector<Coord> snake_path(const MeshShape& mesh, Coord from, Coord to, Subnetwork s);

}  // namespace meshsync

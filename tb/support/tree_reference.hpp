// Independent re-statements of the NOTES.md rules, written from the text and not from
// sw/collective: the tests compare the production code against these.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/core/geometry.hpp"
#include "model/core/random.hpp"
#include "sw/collective/barrier_tree.hpp"

namespace meshsync::ref {

// NOTES.md "Quadrants", written with the point (px, py) and the centre (cx, cy) scaled
// alike. Returns 0..3 in the tie order Q+X, Q+Y, Q-X, Q-Y, or 4 for the centre itself.
inline int quadrant(std::int64_t px, std::int64_t py, std::int64_t cx, std::int64_t cy) {
  if (px > cx && py >= cy) return 0;   // Q+X
  if (px <= cx && py > cy) return 1;   // Q+Y
  if (px < cx && py <= cy) return 2;   // Q-X
  if (px >= cx && py < cy) return 3;   // Q-Y
  return 4;
}

inline Quadrant to_quadrant(int q) {
  switch (q) {
    case 0: return Quadrant::PlusX;
    case 1: return Quadrant::PlusY;
    case 2: return Quadrant::MinusX;
    case 3: return Quadrant::MinusY;
    default: return Quadrant::Centre;
  }
}

// NOTES.md "Root of a member set".
inline NodeId root(const MeshShape& mesh, const std::vector<NodeId>& members) {
  const auto n = static_cast<std::int64_t>(members.size());
  std::int64_t sx = 0, sy = 0;
  for (NodeId m : members) {
    sx += mesh.coord(m).x;
    sy += mesh.coord(m).y;
  }
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for (NodeId m : members) {
    const Coord c = mesh.coord(m);
    const std::int64_t dx = n * c.x - sx, dy = n * c.y - sy;
    best = std::min(best, dx * dx + dy * dy);
  }
  std::vector<NodeId> tied;
  for (NodeId m : members) {
    const Coord c = mesh.coord(m);
    const std::int64_t dx = n * c.x - sx, dy = n * c.y - sy;
    if (dx * dx + dy * dy == best) tied.push_back(m);
  }
  for (int q = 0; q <= 4; ++q) {
    NodeId pick = std::numeric_limits<NodeId>::max();
    for (NodeId m : tied) {
      const Coord c = mesh.coord(m);
      if (quadrant(n * c.x, n * c.y, sx, sy) == q) pick = std::min(pick, m);
    }
    if (pick != std::numeric_limits<NodeId>::max()) return pick;
  }
  return tied.front();  // unreachable
}

// Random member set of `count` distinct nodes, sorted.
inline std::vector<NodeId> random_members(const MeshShape& mesh, std::size_t count,
                                          std::uint64_t seed) {
  std::vector<NodeId> all(static_cast<std::size_t>(mesh.nodes()));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<NodeId>(i);
  Random(seed).partial_shuffle(all.begin(), all.end(), count);
  all.resize(std::min(count, all.size()));
  std::sort(all.begin(), all.end());
  return all;
}

inline std::vector<NodeId> all_nodes(const MeshShape& mesh) {
  std::vector<NodeId> v(static_cast<std::size_t>(mesh.nodes()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<NodeId>(i);
  return v;
}

inline std::vector<NodeId> ids(const MeshShape& mesh, std::initializer_list<Coord> cs) {
  std::vector<NodeId> v;
  for (Coord c : cs) v.push_back(mesh.id(c));
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace meshsync::ref

#include "snake.hpp"

#include <stdexcept>

namespace meshsync {

int snake_label(const MeshShape& mesh, Coord c) {
  return c.y * mesh.width + (c.y % 2 == 0 ? c.x : mesh.width - 1 - c.x);
}

Coord snake_node(const MeshShape& mesh, int label) {
  const int y = label / mesh.width, r = label % mesh.width;
  return {y % 2 == 0 ? r : mesh.width - 1 - r, y};
}

Port snake_port(const MeshShape& mesh, Coord here, Coord dest, Subnetwork s) {
  if (here == dest) return Port::Local;
  const int from = snake_label(mesh, here), to = snake_label(mesh, dest);
  const bool high = s == Subnetwork::High;
  if (high ? to <= from : to >= from)
    throw std::logic_error("snake routing: destination is not ahead in the subnetwork");
  Port best = Port::Local;
  int best_label = from;
  for (Port p : {Port::PlusX, Port::MinusX, Port::PlusY, Port::MinusY}) {
    if (!mesh.has_neighbor(here, p)) continue;
    const int l = snake_label(mesh, step(here, p));
    // A channel of the subnetwork that does not overshoot the destination's label; the
    // neighbour along the snake (label +-1) always qualifies.
    const bool usable = high ? (l > from && l <= to) : (l < from && l >= to);
    if (usable && (best == Port::Local || (high ? l > best_label : l < best_label))) {
      best = p;
      best_label = l;
    }
  }
  return best;
}

Coord snake_next(const MeshShape& mesh, Coord here, Coord dest, Subnetwork s) {
  if (here == dest) throw std::logic_error("snake routing: already at the destination");
  return step(here, snake_port(mesh, here, dest, s));
}

std::vector<Coord> snake_path(const MeshShape& mesh, Coord from, Coord to, Subnetwork s) {
  std::vector<Coord> path;
  for (Coord c = from; c != to;) {
    c = snake_next(mesh, c, to, s);
    path.push_back(c);
  }
  return path;
}

}  // namespace meshsync

// Route computation (RTL meshsync_route and meshsync_snake_route): the output a flit
// takes at this router, from where the router is and where the flit goes.
#pragma once

#include "../flit.hpp"
#include "../geometry.hpp"
#include "ports.hpp"
#include "../snake.hpp"

namespace meshsync {

class RouteUnit {
 public:
  // `coords` maps every node id to its coordinates (shared by all routers).
  RouteUnit(NodeId id, Coord here, const MeshShape& mesh, const Coord* coords, bool all_port)
      : id_(id), here_(here), mesh_(mesh), coords_(coords), all_port_(all_port) {}

  NodeId id() const { return id_; }
  Coord here() const { return here_; }
  const MeshShape& mesh() const { return mesh_; }
  bool all_port() const { return all_port_; }

  // Dimension order by the flit's R bit, or a multidestination worm's snake subnetwork
  // (Hu, Hl). Local when the flit is addressed here.
  Port port(const Flit& f) const {
    switch (f.base) {
      case WormBase::High: return snake_port(mesh_, here_, coords_[f.dest], Subnetwork::High);
      case WormBase::Low: return snake_port(mesh_, here_, coords_[f.dest], Subnetwork::Low);
      default: return port_to(f.dest, f.route);
    }
  }
  // The first hop toward node `n` by dimension order `r` (a register child's).
  Port port_to(NodeId n, Route r) const { return next_port(here_, coords_[n], r); }
  // The output a flit from `input` takes to reach the NI: Local, or in an all-port router
  // the input link's own ejection channel.
  int eject_output(int input) const {
    return all_port_ && input >= 1 && input < kPorts ? kPorts + input - 1 : index(Port::Local);
  }

 private:
  NodeId id_;
  Coord here_;
  MeshShape mesh_;
  const Coord* coords_;
  bool all_port_;
};

}  // namespace meshsync

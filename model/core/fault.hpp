// Fault injection (docs/reliability.md): a link that stops delivering, a router that
// stops, or one flit whose payload has a bit flipped on a link. Faults live in the model's
// links and scheduler (NetworkCore), never in the RTL: they test that the checks around
// the network (the scoreboard, the deadlock watchdog) notice and say where.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flit.hpp"
#include "geometry.hpp"

namespace meshsync {

enum class FaultKind { Link, Router, Corrupt };

struct Fault {
  FaultKind kind = FaultKind::Link;
  Coord at;                  // the router, or the link's sending end
  Port port = Port::Local;   // the link's direction out of `at` (Link, Corrupt)
  std::uint64_t cycle = 0;   // from this cycle on
  std::string place() const;  // "router (3,4)", "link (3,4) +X"
  std::string text() const;   // "link (3,4) +X stopped from cycle 5000", ...
};

// "link:X,Y,DIR@CYCLE" | "router:X,Y@CYCLE" | "corrupt:X,Y,DIR@CYCLE", DIR one of +X -X
// +Y -Y. Throws ConfigError naming what is wrong (a position outside the mesh, a link
// at its edge, ...).
Fault parse_fault(const std::string& spec, const MeshShape& mesh);

// A flit the corrupt fault changed, for reports that name the link it crossed.
struct Corruption {
  std::uint64_t packet = 0;
  std::uint16_t seq = 0;
  std::uint32_t bit = 0;
  std::uint64_t cycle = 0;  // it left the link's sending router
  Fault fault;
};

// The faults of one run, consulted by NetworkCore on every flit that crosses a link and
// every router step while a fault is set.
class FaultInjector {
 public:
  FaultInjector(const MeshShape& mesh, std::uint64_t seed) : mesh_(mesh), seed_(seed) {}
  void add(const Fault& f);
  bool empty() const { return faults_.empty(); }
  const std::vector<Fault>& faults() const { return faults_; }

  // Router n does nothing from the fault's cycle on.
  bool router_stopped(NodeId n, std::uint64_t cycle);
  // The flit `f` leaving `from` through `port` in `cycle`: false if the link swallows
  // it; a corrupt fault may flip one payload bit of a worm flit (the scoreboard checks
  // those; sync flits are left alone, a reduction message's too: its vector is checked by
  // the allreduce's result, its descriptor by the routers).
  bool cross(NodeId from, Port port, Flit& f, std::uint64_t cycle);
  // Routers a fault holds: kept awake so that the deadlock watchdog runs while the
  // flits and credits they hold never move.
  const std::vector<NodeId>& held() const { return held_; }
  const std::vector<Corruption>& corrupted() const { return corrupted_; }
  // What the faults did so far, one line each (for the watchdog's report).
  std::vector<std::string> report() const;

 private:
  void hold(NodeId n);
  MeshShape mesh_;
  std::uint64_t seed_;
  std::vector<Fault> faults_;
  std::vector<bool> done_;                // per fault: a corruption happened
  std::vector<std::uint64_t> swallowed_;  // per fault: flits a dead link lost
  std::vector<NodeId> held_;
  std::vector<Corruption> corrupted_;
};

}  // namespace meshsync

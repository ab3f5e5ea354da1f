// One configuration object for everything that is a design choice of the router or a
// timing parameter of the papers. The CLI, YAML files and tests all fill this struct;
// nothing else in the code holds a timing constant.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "errors.hpp"
#include "flit.hpp"
#include "geometry.hpp"

namespace meshsync {

// Cycles of the network clock (NOTES.md "Timing model"; 1 cycle = 1 ns at 1 GHz).
struct Timing {
  std::uint32_t ts = 1000;  // start-up at the network interface
  std::uint32_t tp = 5;     // one link traversal
  std::uint32_t trn = 5;    // router delay when a router only forwards
  std::uint32_t trm = 30;   // router delay when a member router processes a sync message
};

struct RouterParams {
  // Worm VC input buffer, flits. Full link throughput needs depth >= 2*tp + trn + 1 (the
  // credit round trip, docs/microarchitecture.md); 16 covers the paper's timing.
  std::uint32_t buffer_depth = 16;
  // Each of the two sync VCs; sync messages are single flits and rare.
  std::uint32_t sync_buffer_depth = 4;
  // Barrier registers per router (the CAM size).
  std::uint32_t barrier_registers = 4;
  // Children one register can hold (BTM needs 4; a CS root may have more). A member with
  // more children keeps its register in node memory instead (software fallback).
  std::uint32_t max_children = 8;
  // Channels between the router and its network interface. 1 (one-port): one injection
  // channel and the Local output. 4 (all-port, the QG paper's model): four injection
  // channels, and every input link ejects on a channel of its own, so an absorbing
  // multidestination worm never waits for another one at the NI (docs/deadlock.md).
  std::uint32_t ni_ports = 1;
  // The tree worm VC (docs/tree-multicast.md). A tree worm moves on only into a buffer
  // that has room for all of it (virtual cut-through), so this is also the longest tree
  // worm: 66 flits hold a head, a fragment index and a 256-byte fragment.
  std::uint32_t tree_buffer_depth = 66;

  // Depth of VC `vc`'s input buffer (and the credits of that VC on a link).
  std::uint32_t depth(int vc) const {
    return vc == kTreeVc ? tree_buffer_depth : is_worm_vc(vc) ? buffer_depth : sync_buffer_depth;
  }
};

struct NetworkConfig {
  MeshShape mesh{8, 8};
  Timing timing;
  RouterParams router;
  // A busy network in which no flit moves for this many cycles is reported as deadlocked.
  std::uint64_t deadlock_cycles = 100000;

  // Throws ConfigError naming the first problem found.
  void validate() const;
};

inline void NetworkConfig::validate() const {
  const auto fail = [](const std::string& m) { throw ConfigError(m); };
  if (mesh.width < 1 || mesh.height < 1 || mesh.nodes() < 2)
    fail("mesh must have at least 2 nodes, got " + std::to_string(mesh.width) + "x" +
         std::to_string(mesh.height));
  if (mesh.width > 1024 || mesh.height > 1024)
    fail("mesh side larger than 1024 is not supported, got " + std::to_string(mesh.width) + "x" +
         std::to_string(mesh.height));
  if (timing.ts < 1) fail("ts must be at least 1 cycle (the NI registers the request)");
  if (timing.tp < 1) fail("tp must be at least 1 cycle");
  if (timing.trn < 1) fail("trn must be at least 1 cycle");
  if (timing.trm < 1) fail("trm must be at least 1 cycle");
  if (router.buffer_depth < 1) fail("buffer depth must be at least 1 flit");
  if (router.sync_buffer_depth < 1) fail("sync buffer depth must be at least 1 flit");
  if (router.tree_buffer_depth < 2) fail("tree buffer depth must be at least 2 flits (a head and a word)");
  if (router.tree_buffer_depth > 65535) fail("tree buffer depth must be at most 65535 flits");
  if (router.barrier_registers > 256) fail("at most 256 barrier registers (8-bit GID space)");
  if (router.max_children < 4) fail("max-children must be at least 4 (a BTM member has up to 4)");
  if (router.max_children > 64) fail("max-children must be at most 64");
  if (router.ni_ports != 1 && router.ni_ports != 4)
    fail("ni-ports must be 1 (one-port) or 4 (all-port), got " + std::to_string(router.ni_ports));
  const std::uint64_t slowest = 2ull * (timing.tp + timing.trn + timing.trm) + timing.ts;
  if (deadlock_cycles <= slowest)
    fail("deadlock-cycles must exceed " + std::to_string(slowest) +
         " (longer than any legitimate wait)");
}

}  // namespace meshsync

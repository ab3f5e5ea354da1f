// Random stimulus for the lockstep checker: the bench plays the router's four neighbours
// and its network interface, as a real mesh would, and keeps to the flow-control and
// barrier protocols:
//   - upstream: one flit per port and cycle, only with a credit (Local: only when the
//     buffer has room), worms contiguous on VC 0 of each input, sync messages on the VC of
//     their R bit;
//   - downstream: every flit on a non-Local output is freed after a delay (sometimes a long
//     stall) and its credit returned, one credit per (port, VC) and cycle;
//   - all-port routers: worms and multidestination worms on injection channels 1-3 too;
//   - tree worms of 1 to 16 flits on VC 4, of the players' groups (whose registers give
//     children) or of groups with no register, addressed here or passing through, XY or YX;
//   - traffic: worms of 1 to 24 flits to any node; multidestination worms (XY, Hu, Hl) of
//     1 to 4 addresses and 1 to 12 data flits, absorbed here or passing through, half of
//     the snake ones with a forced first hop (honoured on Local only), with
//     random data bits (which must not be read as addresses); sync messages of all four types passing
//     through (XY and YX, with and without CS transit entries) or addressed to this router,
//     some of the arrivals and releases of GIDs no player has reduction messages (sync
//     worms of 2 to 14 flits);
//   - groups: "players" program barrier registers through the software port (BTM with up
//     to four neighbour children, CS with up to MaxChildren children), run reduction and
//     distribution epochs (with reduction lanes, half of the players reduce a vector in
//     most of their BTM epochs: a random operation, type and length, allreduce or not),
//     free (also early, while releases still wait for credits, and
//     mid-epoch, which sends messages on to the NI), and fall back to software when the CAM
//     is full; fillers program and free registers to fill the CAM.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "lockstep.hpp"

namespace meshsync::rtl {

struct BenchOptions {
  std::uint64_t cycles = 20000;
  std::uint32_t seed = 1;
  Coord where{3, 4};
  int credit_delay = 2;     // cycles from a credit leaving the router to the upstream using it
  int link_delay = 3;       // minimum cycles a flit occupies the downstream buffer
  double load = 0.5;        // probability that an input port presents a flit it could send
  double worm_rate = 0.04;  // per port and cycle: a new worm is queued
  double mcast_rate = 0.02; // per port and cycle: a new multidestination worm is queued
  double sync_rate = 0.02;  // per port and cycle: a sync message not played by a group
  // Of those that are arrivals or releases of GIDs no player has: reduction messages.
  double reduction_share = 0.5;
  double tree_rate = 0.01;  // per port and cycle: a new tree worm is queued
  int players = 6;          // groups played at this router
  bool stalls = true;       // downstream ports stall now and then
};

struct BenchStats {
  std::uint64_t cycles = 0;
  std::uint64_t flits_compared = 0;
  std::uint64_t credits_compared = 0;
  std::uint64_t idle_cycles = 0;   // cycles in which model and RTL both said idle
  std::uint64_t worms = 0;
  std::uint64_t lane_flits_out = 0;  // unicast worm flits sent on a unicast VC past VC 0
  std::uint64_t multicast_worms = 0;
  std::uint64_t absorbed = 0;      // multidestination worms with this router among their destinations
  std::uint64_t forced_first_hops = 0;  // injected on Local with a forced first hop to honour
  std::uint64_t tree_worms = 0;         // tree worms queued (docs/tree-multicast.md) ...
  std::uint64_t tree_here = 0;          // ... of them addressed to this router
  std::uint64_t tree_flits_out = 0;     // tree flits the router sent (copies count apiece)
  std::uint64_t sync_messages = 0;
  std::uint64_t reduction_messages = 0;  // ... of them sync worms (passing through, or to the NI)
  std::uint64_t channel_flits_in = 0;   // all-port: flits in on injection channels 1-3
  std::uint64_t channel_flits_out = 0;  // all-port: flits out on the ejection outputs 5-8
  std::uint64_t programs_ok = 0;
  std::uint64_t programs_failed = 0;
  std::uint64_t frees = 0;
  std::uint64_t epochs = 0;        // reductions + distributions completed in hardware
  std::uint64_t reduction_epochs = 0;  // epochs begun whose arrivals carry vectors
  std::uint64_t early_frees = 0;   // freed while releases still waited in the outbox
  std::uint64_t aborts = 0;        // freed mid-epoch (messages go on to the NI)
  std::string summary() const;
};

struct BenchResult {
  bool ok = true;
  std::string mismatch;
  BenchStats stats;
};

BenchResult run_random_bench(std::unique_ptr<RtlRouter> rtl, const BenchOptions& opt);

}  // namespace meshsync::rtl

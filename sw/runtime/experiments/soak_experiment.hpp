// The soak (docs/reliability.md): one long simulation that mixes ordinary unicast load,
// barriers on many concurrent groups (BTM and CS, more groups per router than it has
// barrier registers, so some members keep theirs in node memory), path-based
// multicasts, broadcasts (binomial, adaptive, two-stage) and allreduces (software and in
// the routers), and checks all of it (every allreduce rank's result against its
// schedule's, or the tree's in the routers): the scoreboards see every worm flit (none lost,
// duplicated, modified or reordered; every multicast copy exactly once), and every
// barrier epoch releases each member exactly once, only after all members arrived.
// Faults can be injected into the model's links and routers to show that the checks
// and the deadlock watchdog notice them and say where.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../../../model/core/fault.hpp"
#include "../../../model/core/traffic.hpp"
#include "../../collective/path_multicast.hpp"
#include "experiment_run.hpp"

namespace meshsync {

struct SoakParams {
  std::uint64_t cycles = 20000;  // new work (packets, epochs, multicasts) starts before this cycle
  std::uint64_t seed = 1;
  // Ordinary unicast load (meshsync traffic); rate 0: none.
  TrafficPattern pattern = TrafficPattern::Uniform;
  double rate = 0.05;  // flits/node/cycle
  std::uint16_t flits = 4;
  // Barrier groups, alternately BTM and CS, of random members.
  std::int64_t groups = -1;    // -1: 3 x registers + 1 (at least 4); 0: no barriers
  std::size_t group_size = 0;  // 0: half the nodes (at most 256)
  std::uint64_t think = 500;   // a member arrives 0..think cycles after its release
  // Path-based multicasts from random sources to random destinations; rate 0: none.
  MulticastAlgorithm algorithm = MulticastAlgorithm::QG;
  double multicast_rate = 0.0002;  // multicasts/node/cycle
  std::size_t multicast_dests = 6;
  std::uint16_t multicast_flits = 8;  // data flits
  // Broadcasts over point-to-point messages: one starts every `broadcast_gap` cycles (0:
  // none) on random ranks that are in no running broadcast, from a random root, the tree
  // alternately TUNED's binomial and the adaptive one; ranks enter 0..think cycles late.
  std::uint64_t broadcast_gap = 1000;
  std::size_t broadcast_ranks = 0;     // 0: a quarter of the nodes, at least 2, at most 64
  std::uint64_t broadcast_bytes = 600;  // split into MTU-sized packets
  std::uint64_t broadcast_mtu = 256;
  // Allreduces: one starts every `allreduce_gap` cycles (0: none) on as many ranks as a
  // broadcast has, nodes in no running broadcast or allreduce (skipped when too few are
  // free), the algorithm, operation and type in turn, 1 to 16 elements. Every fourth runs
  // in the routers (btm) on model routers with --reduce-words 32 or more; its ranks join a
  // BTM group for it, and where a router has no free register it runs in software.
  std::uint64_t allreduce_gap = 1500;
  std::vector<Fault> faults;
  void validate(const NetworkConfig& cfg) const;  // throws ConfigError
  // The defaults of groups and group_size resolved for a network.
  std::size_t group_count(const NetworkConfig& cfg) const;
  std::size_t members_per_group(const NetworkConfig& cfg) const;
  std::size_t ranks_per_broadcast(const NetworkConfig& cfg) const;
};

struct SoakSchemeCounts {
  std::size_t groups = 0;
  std::size_t overflowed_groups = 0;  // groups with a member whose register is in node memory
  std::size_t software_members = 0;
  std::uint64_t epochs = 0;           // completed: every member released
};

struct SoakResult {
  std::uint64_t cycles = 0;  // simulated, until everything drained
  double wall_seconds = 0;   // host time of the simulation
  std::uint64_t flits_injected = 0;   // worm flits due at destinations (a multicast copy each)
  std::uint64_t flits_delivered = 0;
  std::uint64_t unicast_packets = 0;  // delivered: the traffic's and the multicasts' own steps
  std::uint64_t worms = 0;            // worms delivered whole at every destination
  std::uint64_t multicasts = 0;       // called
  std::uint64_t multicasts_done = 0;  // delivered whole at every destination
  std::uint64_t broadcasts = 0;       // started
  std::uint64_t broadcasts_done = 0;  // every rank had the root's bytes
  std::uint64_t broadcast_messages = 0;  // point-to-point packets the broadcasts sent
  std::uint64_t two_stage_broadcasts = 0;  // of them two-stage (every third, on model routers)
  std::uint64_t tree_members = 0;            // their ranks, and those of them with a barrier
  std::uint64_t tree_members_in_hardware = 0;  // register (the others' subtrees miss stage 1)
  std::uint64_t tree_copies_kept = 0;      // their multicast copies the ranks took
  std::uint64_t tree_copies_dropped = 0;   // ... dropped in routers or at NIs with no receive posted
  std::uint64_t allreduces = 0;            // started
  std::uint64_t allreduces_done = 0;       // every rank had its schedule's result
  std::uint64_t allreduce_messages = 0;    // point-to-point packets they sent
  std::uint64_t allreduces_in_network = 0;  // of them reduced in the routers
  std::uint64_t allreduces_without_registers = 0;  // meant for the routers, run in software: a router had no free register
  SoakSchemeCounts btm, cs;
  std::vector<std::string> violations;  // one line each; empty: passed
  bool passed() const { return violations.empty(); }
};

// Builds the machine for `cfg`, runs the soak and checks it. Bad parameters throw
// ConfigError; everything a run can get wrong (a deadlock too) is a violation.
// `attach` sees the machine before it runs (RTL routers in place of the cores).
SoakResult run_soak_experiment(const ValidConfig& cfg, const SoakParams& p, const MachineHook& attach = {});

}  // namespace meshsync

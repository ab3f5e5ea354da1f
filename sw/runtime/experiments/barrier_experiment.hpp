// `meshsync barrier`: barriers measured on the simulated mesh as the BTM paper measures
// them, for one scheme or two side by side, alone or under unicast load.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../collective/barrier_tree.hpp"
#include "experiment_run.hpp"

namespace meshsync {

struct BarrierParams {
  std::string members = "all";  // all | random:N | x,y;x,y;...
  std::vector<BarrierScheme> schemes{BarrierScheme::BTM};  // two: compare them
  std::int64_t repeat = 1;
  std::uint64_t seed = 1;
  BackgroundLoad load;
  // With no barrier register at all every member keeps its register in node memory
  // (docs/barrier-fallback.md): refused unless asked for.
  bool software_fallback = false;
  // Every barrier must take exactly the NOTES.md formula's cycles: refused where the
  // formula cannot hold (t_rm below exact_trm_minimum(), a load, the software fallback),
  // and a barrier that differs fails the run (SimulationError), naming the sync messages
  // that compete for a port if its tree has any (BarrierTree::contention): the formula
  // holds exactly only where none do.
  bool exact = false;
};

// One measured barrier and the tree it ran on.
struct BarrierRun {
  std::size_t members = 0;
  Coord root;
  int height = 0;
  std::uint64_t analytic_cycles = 0;
  BarrierMeasurement measured;
  std::string contention;  // under p.exact: BarrierTree::contention of its tree
};

struct BarrierResult {
  std::vector<std::vector<BarrierRun>> runs;  // per scheme, per repetition
  std::optional<TrafficResult> load;          // the background load, measured while they ran
  // The second scheme's mean latency over the first's (0 unless there are two).
  double speedup() const;
};

// Random member sets are drawn afresh for every repetition (seed, seed+1, ...), as the
// paper averages over random groups; every scheme sees the same sets. Bad parameters
// throw ConfigError, a failed simulation SimulationError.
BarrierResult run_barrier_experiment(const ValidConfig& cfg, const BarrierParams& p, const MachineHook& hook = {});

// Under p.exact: SimulationError naming the first barrier whose latency differs from the
// formula's, and where its tree's messages compete for a port.
void check_exact(const BarrierParams& p, const BarrierResult& r);

}  // namespace meshsync

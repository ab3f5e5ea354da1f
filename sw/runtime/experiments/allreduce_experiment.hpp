// `meshsync allreduce`: an allreduce over the ranks of a communicator, in the routers along
// the ranks' BTM tree (btm) and with each software algorithm over point-to-point messages
// (recursive doubling, ring, binomial reduce and broadcast); every rank's result checked
// against the tree's reduction or the same schedule run without a network and, for
// integers, against the exact reduction (docs/reduction.md).
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "../../collective/reduction.hpp"
#include "../allreduce_run.hpp"
#include "experiment_run.hpp"

namespace meshsync {

struct AllreduceParams {
  std::string comm = "all";  // the ranks: rank i = the i-th member in node-id order
  ReduceOp op = ReduceOp::Sum;
  ElementType type = ElementType::Int32;
  std::int64_t elements = 1;
  std::vector<AllreduceAlgorithm> algorithms{std::begin(kAllAllreduceAlgorithms), std::end(kAllAllreduceAlgorithms)};
  std::uint64_t seed = 1;  // the ranks (random:N) and the inputs
  // btm must take its zero-load formula's cycles (docs/reduction-hardware.md, "Timing"):
  // refused unless t_rm and the sync buffers allow it, checked by check_exact, which names
  // the competing reduction messages (BarrierTree::allreduce_contention) if any.
  bool exact = false;
};

// The most elements a message may carry: a worm of a head and a word a 32-bit element
// (two for int64) has at most 65535 flits.
inline constexpr std::size_t kMaxReduceWords = 65534;

struct AllreduceAlgorithmRun {
  AllreduceAlgorithm algorithm = AllreduceAlgorithm::Ring;
  AllreduceRunResult run;
  std::size_t schedule_messages = 0;
  std::uint64_t analytic_cycles = 0;  // btm: 2(ts + B) + L - 1 on the ranks' tree; 0 for the others
  std::string contention;  // btm under p.exact: BarrierTree::allreduce_contention of the ranks' tree
  // The check: every rank's result equals the schedule run without a network, word for
  // word (`first_wrong_rank` otherwise); for integers also the exact reduction.
  bool correct = false;
  std::string problem;  // what differs, when not correct
};

struct AllreduceExperimentResult {
  std::vector<NodeId> nodes;            // rank -> node
  std::vector<ReduceVector> inputs;     // per rank
  ReduceVector rank_order;              // reduce_in_rank_order of the inputs
  std::vector<AllreduceAlgorithmRun> runs;  // in the order of the algorithms
};

// Bad parameters throw ConfigError; a failed simulation SimulationError. A wrong result is
// reported in the run (`correct`), not thrown, so that the output shows it.
AllreduceExperimentResult run_allreduce_experiment(const ValidConfig& cfg, const AllreduceParams& p,
                                                   const MachineHook& hook = {});

// With p.exact: SimulationError naming the difference when btm's latency is not its formula's,
// and where the tree's reduction messages compete for a port if they do (the formula holds
// exactly only where none do).
void check_exact(const AllreduceParams& p, const AllreduceExperimentResult& x);

// The inputs of the ranks for a seed: int32 and int64 over their whole range (sums wrap
// around), float32 multiples of 1/1024 in [-8192, 8192) (sums round).
std::vector<ReduceVector> allreduce_inputs(ElementType t, std::size_t ranks, std::size_t elements, std::uint64_t seed);

}  // namespace meshsync

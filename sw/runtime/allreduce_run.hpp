// Reductions over point-to-point messages in the simulated mesh (issue 24; the software
// baselines the in-network reduction is compared with): a rank runs its actions of a
// ReduceSchedule on its node, one after the other. A send keeps the rank busy for its
// start-up and carries the chunk's words as they are at the call; a receive waits for the
// peer's next message (messages between two nodes arrive in order) and combines or
// copies it. The same runner serves a member's calls on a communicator (allreduce,
// reduce: MPI's) and the whole communicator at once (run_allreduce, for the experiment).
// docs/reduction.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../collective/reduction.hpp"
#include "communicator.hpp"
#include "machine.hpp"

namespace meshsync {

// What one rank's part of a schedule did.
struct ReduceRankStats {
  std::uint64_t messages = 0, flits = 0, hops = 0;
  std::string error;  // a message of the wrong length (none, unless broken)
};

// Rank `me` of `rank_nodes` runs `actions` on its node, as non-blocking software, on
// `buffer` (which must outlive it); `done` gets its statistics once the last action ended.
void run_rank(Node& node, const MeshShape& mesh, const std::vector<NodeId>& rank_nodes,
              const std::vector<ReduceAction>& actions, std::size_t me, ReduceOp op, ElementType t,
              ReduceVector& buffer, std::function<void(const ReduceRankStats&)> done);

// A member's calls on a communicator, from its software thread (SC_THREAD), blocking
// until its part is done: ranks are the members in node-id order. allreduce leaves the
// reduction of every member's buffer in every buffer; reduce leaves it in rank `root`'s
// (a binomial-tree reduce), the others' buffers hold partial reductions. Every member
// must call with the same operation, type, length and algorithm or root. allreduce with
// AllreduceAlgorithm::Btm reduces in the routers along the communicator's BTM tree, which
// its members must have joined (docs/reduction-hardware.md).
void allreduce(Node& node, const Communicator& c, ReduceVector& buffer, ReduceOp op, ElementType t,
               AllreduceAlgorithm a);
// reduce with AllreduceAlgorithm::Btm reduces in the routers too; the other ranks' buffers
// keep their inputs.
void reduce(Node& node, const Communicator& c, ReduceVector& buffer, ReduceOp op, ElementType t, std::size_t root,
            AllreduceAlgorithm a = AllreduceAlgorithm::BinomialBroadcast);

struct AllreduceRankTiming {
  NodeId node = 0;
  std::uint64_t completion = 0;  // cycles after the common start: its last action ended
};

struct AllreduceRunResult {
  std::vector<ReduceVector> results;  // every rank's vector at the end
  std::vector<AllreduceRankTiming> ranks;
  std::uint64_t messages = 0, hops = 0, flits = 0;
  std::vector<std::string> errors;
  std::uint64_t latency() const;  // the last rank's completion
};

// From a driver thread of a running Machine whose network is idle: every rank starts
// together one cycle later; returns once every rank has finished and the network drained.
AllreduceRunResult run_allreduce(Machine& m, const std::vector<NodeId>& rank_nodes, const ReduceSchedule& s,
                                 ReduceOp op, ElementType t, const std::vector<ReduceVector>& inputs);
// The same for the in-network reduction: the ranks' BTM group is created and joined, every
// rank arrives with its vector together, and a rank completes at its release. `all`:
// allreduce; else a reduce, whose result only the tree's root gets (the others' results
// are empty). Messages and flits are the tree's, one reduction message up and one down
// each edge (computed from the tree, not counted); hops are measured.
// The group is left and freed before it returns.
AllreduceRunResult run_in_network_reduction(Machine& m, const std::vector<NodeId>& rank_nodes, ReduceOp op,
                                            ElementType t, const std::vector<ReduceVector>& inputs, bool all = true);

}  // namespace meshsync

// A software allreduce over point-to-point messages in the simulated mesh (issue 24; the
// baselines the in-network reduction is compared with): every rank's software runs its
// ReduceSchedule as callbacks on its node, one action after the other. A send keeps the
// rank busy for its start-up and carries the chunk's words as they are at the call; a
// receive waits for the peer's next message (messages between two nodes arrive in order)
// and combines or copies it. docs/reduction.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../collective/reduction.hpp"
#include "machine.hpp"

namespace meshsync {

struct AllreduceRankTiming {
  NodeId node = 0;
  std::uint64_t completion = 0;  // cycles after the common start: its last action ended
};

struct AllreduceRunResult {
  std::vector<ReduceVector> results;  // every rank's vector at the end
  std::vector<AllreduceRankTiming> ranks;
  std::uint64_t messages = 0, hops = 0, flits = 0;
  std::vector<std::string> errors;  // messages of the wrong length (none, unless broken)
  std::uint64_t latency() const;  // the last rank's completion
};

// From a driver thread of a running Machine whose network is idle: every rank starts
// together one cycle later; returns once every rank has finished and the network drained.
AllreduceRunResult run_allreduce(Machine& m, const std::vector<NodeId>& rank_nodes, const ReduceSchedule& s,
                                 ReduceOp op, ElementType t, const std::vector<ReduceVector>& inputs);

}  // namespace meshsync

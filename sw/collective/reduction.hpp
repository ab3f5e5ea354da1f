// Reductions (issue 24; docs/reduction.md, NOTES-reduction.md): on the element arithmetic
// of model/core/reduction_element.hpp, the software allreduce algorithms of MPI libraries
// as schedules, pure functions of the communicator size and the vector length. A schedule says, per rank and in order, which chunk of the vector it
// sends to whom and which it receives from whom, combining or replacing; the runtime
// (sw/runtime/allreduce_run.hpp) runs it over point-to-point messages, and evaluate()
// runs the same schedule without a network: the reference a run's results must equal
// word for word, whatever the floating-point order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../../model/core/reduction_element.hpp"

namespace meshsync {

// Btm: the in-network reduction along the BTM barrier tree, in the routers
// (docs/reduction-hardware.md); the others are software over point-to-point messages,
// with schedules.
enum class AllreduceAlgorithm { Btm, RecursiveDoubling, Ring, BinomialBroadcast };
inline constexpr AllreduceAlgorithm kSoftwareAllreduceAlgorithms[] = {
    AllreduceAlgorithm::RecursiveDoubling, AllreduceAlgorithm::Ring, AllreduceAlgorithm::BinomialBroadcast};
inline constexpr AllreduceAlgorithm kAllAllreduceAlgorithms[] = {
    AllreduceAlgorithm::Btm, AllreduceAlgorithm::RecursiveDoubling, AllreduceAlgorithm::Ring,
    AllreduceAlgorithm::BinomialBroadcast};
std::string allreduce_algorithm_name(AllreduceAlgorithm a);  // "btm", "recursive-doubling", "ring", "binomial"

// One step of a rank: send elements [from, from + count) of its vector to `peer`, or
// receive them from `peer` and combine them with its own (the one with the lower rank as
// the first operand) or take them as they are.
struct ReduceAction {
  enum class Kind { Send, ReceiveCombine, ReceiveReplace } kind = Kind::Send;
  std::size_t peer = 0;
  std::size_t from = 0, count = 0;  // elements
};

struct ReduceSchedule {
  AllreduceAlgorithm algorithm = AllreduceAlgorithm::Ring;
  std::size_t ranks = 0, elements = 0;
  std::vector<std::vector<ReduceAction>> actions;  // per rank, in order
  std::size_t messages() const;                    // sends over all ranks
};

// The schedules (docs/reduction.md):
//  recursive doubling: ceil(log2 P) pairwise exchanges of the whole vector; with P not a
//    power of two the first 2r ranks (r = P - 2^floor(log2 P)) pair up first, the odd one
//    of each pair taking part for both, and hands the result back at the end;
//  ring: reduce-scatter then allgather around the ranks, 2 (P - 1) steps of one chunk
//    (about K / P elements) each; chunks may be empty when K < P (a head-only message);
//  binomial: a binomial-tree reduce to rank 0, then a binomial broadcast from it.
// Throws std::logic_error for Btm, which the routers run (no schedule).
ReduceSchedule allreduce_schedule(AllreduceAlgorithm a, std::size_t ranks, std::size_t elements);
// A reduce to rank `root`: the binomial schedule's first half, in ranks relative to the
// root. Only the root's vector is the reduction; the others hold partial ones.
ReduceSchedule reduce_schedule(std::size_t ranks, std::size_t elements, std::size_t root);

// A receive of `a` at rank `me`: `received` (a.count elements) combined into its elements
// [a.from, a.from + a.count), the lower rank's as the first operand, or copied over them.
void apply_receive(const ReduceAction& a, std::size_t me, ReduceOp op, ElementType t, ReduceVector& own,
                   const ReduceVector& received);

// The schedule run without a network, sends and receives matched in order per pair of
// ranks: every rank's final vector. Throws std::logic_error if the schedule would leave a
// rank waiting (a defect of the schedule, not of the input).
std::vector<ReduceVector> evaluate(const ReduceSchedule& s, ReduceOp op, ElementType t,
                                   const std::vector<ReduceVector>& inputs);

// The reduction of all ranks' vectors in rank order, ((v0 op v1) op v2) ...: the exact
// result for integers whatever the order; for float32 one order among others.
ReduceVector reduce_in_rank_order(ReduceOp op, ElementType t, const std::vector<ReduceVector>& inputs);

}  // namespace meshsync

// The reduction along a barrier tree, as the member routers would combine it (issue 24,
// docs/reduction-hardware.md): the reference an in-network reduction's results
// are checked against, bit for bit.
#pragma once

#include <vector>

#include "barrier_tree.hpp"
#include "reduction.hpp"

namespace meshsync {

// Each member's partial result is its children's partial results combined in the order
// of their child slots (C+X, C-X, C+Y, C-Y: port order), then its own vector:
//   r(n) = ((r(c1) op r(c2)) op ...) op own(n),   a leaf's r(n) = own(n).
// Gives r(root). `inputs` are the ranks' vectors, rank k being the k-th member in
// node-id order (tree.nodes()). For integers this is the exact reduction; for float32
// the one order a router tree fixes, whatever the timing. The in-network reduction runs
// on BTM trees; a CS tree's children carry no slot and are taken in node-id order, which
// no router implements (the function stays total, for integer checks on any tree).
// Throws std::invalid_argument unless every input has the same whole number of elements.
ReduceVector reduce_along_tree(const BarrierTree& tree, ReduceOp op, ElementType t,
                               const std::vector<ReduceVector>& inputs);

}  // namespace meshsync

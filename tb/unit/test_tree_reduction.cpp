// The reduction along a barrier tree (sw/collective/tree_reduction.hpp), the reference of
// the in-network reduction: exact for integers on any tree, and for float32 the order of
// the tree: children by slot (C+X, C-X, C+Y, C-Y), then the member's own vector.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>

#include "sw/collective/barrier_tree.hpp"
#include "sw/collective/tree_reduction.hpp"

using namespace meshsync;

namespace {

std::uint32_t word(float f) {
  std::uint32_t w;
  std::memcpy(&w, &f, sizeof w);
  return w;
}

std::vector<ReduceVector> random_inputs(std::size_t ranks, std::size_t words, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ReduceVector> v(ranks, ReduceVector(words));
  for (ReduceVector& r : v)
    for (std::uint32_t& w : r) w = static_cast<std::uint32_t>(rng());
  return v;
}

}  // namespace

TEST_CASE("tree reduction: integers give the exact reduction on BTM and CS trees", "[unit][reduction]") {
  const MeshShape mesh{8, 8};
  std::mt19937_64 rng(7);
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS})
    for (std::size_t n : {1u, 2u, 5u, 17u, 40u, 64u}) {
      std::vector<NodeId> all(64);
      for (NodeId k = 0; k < 64; ++k) all[k] = k;
      std::shuffle(all.begin(), all.end(), rng);
      std::vector<NodeId> members(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
      const BarrierTree tree = build_tree(scheme, mesh, members);
      for (ElementType t : {ElementType::Int32, ElementType::Int64}) {
        const auto inputs = random_inputs(n, 3 * words_per_element(t), n);
        for (ReduceOp op : kAllReduceOps) {
          INFO(scheme_name(scheme) << " " << n << " members, " << reduce_op_name(op) << " " << element_type_name(t));
          CHECK(reduce_along_tree(tree, op, t, inputs) == reduce_in_rank_order(op, t, inputs));
        }
      }
    }
}

TEST_CASE("tree reduction: float32 combines the children by slot, then the member's own", "[unit][reduction]") {
  // The whole 8x8 mesh: the root has four children, each the root of a quadrant.
  const MeshShape mesh{8, 8};
  std::vector<NodeId> members(64);
  for (NodeId k = 0; k < 64; ++k) members[k] = k;
  const BarrierTree tree = build_tree(BarrierScheme::BTM, mesh, members);
  const TreeNode& root = tree.at(tree.root());
  REQUIRE(root.children.size() == 4);
  // The root's children by slot.
  NodeId by_slot[4] = {};
  for (const ChildLink& c : root.children) by_slot[tree.at(c.node).slot] = c.node;
  const auto with = [&](float s0, float s1, float s2) {
    std::vector<ReduceVector> inputs(64, ReduceVector{word(0.0f)});
    inputs[by_slot[0]] = {word(s0)};  // rank = node id: every node is a member
    inputs[by_slot[1]] = {word(s1)};
    inputs[by_slot[2]] = {word(s2)};
    return reduce_along_tree(tree, ReduceOp::Sum, ElementType::Float32, inputs);
  };
  // 1e8 + 1 rounds back to 1e8: which pair is summed first decides the result.
  CHECK(with(1e8f, 1.0f, -1e8f) == ReduceVector{word(0.0f)});  // (1e8 + 1) - 1e8
  CHECK(with(1e8f, -1e8f, 1.0f) == ReduceVector{word(1.0f)});  // (1e8 - 1e8) + 1
  // The member's own vector comes last: the root's 1 after its children's 1e8 - 1e8.
  std::vector<ReduceVector> own(64, ReduceVector{word(0.0f)});
  own[by_slot[0]] = {word(1e8f)};
  own[tree.root()] = {word(1.0f)};
  own[by_slot[3]] = {word(-1e8f)};
  CHECK(reduce_along_tree(tree, ReduceOp::Sum, ElementType::Float32, own) == ReduceVector{word(1.0f)});
}

// Broadcast trees without the simulator: TUNED's binomial tree with MPI rank rotation
// (NOTES-broadcast B1) and Figueira & Mendes' adaptive binomial tree, whose worked
// examples (Tables 2-8, vectors of A5) are checked exactly.
#include <catch2/catch.hpp>

#include <algorithm>

#include "model/core/random.hpp"
#include "sw/collective/adaptive_broadcast.hpp"
#include "sw/collective/adaptive_tree.hpp"
#include "sw/collective/broadcast_tree.hpp"
#include "sw/collective/tree_swapping.hpp"

using namespace meshsync;
using namespace meshsync::adaptive;

namespace {

// Table 1: groups A = {0,3,6,7}, B = {1,2}, C = {4,5}; 0 within a group, A-B 2, A-C 3, B-C 5.
DistanceMatrix table1() {
  const auto group = [](Node v) { return v == 1 || v == 2 ? 1 : v == 4 || v == 5 ? 2 : 0; };
  const std::uint32_t between[3][3] = {{0, 2, 3}, {2, 0, 5}, {3, 5, 0}};
  DistanceMatrix d(8);
  for (Node u = 0; u < 8; ++u)
    for (Node v = 0; v < 8; ++v) d.set(u, v, between[group(u)][group(v)]);
  return d;
}

// Table 5: Table 1 plus node 8.
DistanceMatrix table5() {
  const DistanceMatrix t1 = table1();
  const std::uint32_t d8[9] = {4, 2, 5, 0, 0, 4, 4, 3, 0};
  DistanceMatrix d(9);
  for (Node u = 0; u < 8; ++u)
    for (Node v = 0; v < 8; ++v) d.set(u, v, t1(u, v));
  for (Node v = 0; v < 9; ++v) d.set_symmetric(8, v, d8[v]);
  return d;
}

using Leaves = std::vector<std::pair<Node, Cost>>;

AdaptiveTree table2_tree(const DistanceMatrix& d) {
  return AdaptiveTree::balanced_path(d, 0, {1, 2, 3, 4, 5, 6, 7});
}

std::vector<Node> identity(std::size_t n) {
  std::vector<Node> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<Node>(i);
  return v;
}

std::vector<Node> second_nodes(const std::vector<NodePair>& pairs) {
  std::vector<Node> out;
  for (const auto& p : pairs) out.push_back(p.second);
  return out;
}

}  // namespace

TEST_CASE("binomial broadcast: TUNED rounds after rank rotation", "[broadcast]") {
  // P = 8 from rank 0: 0->1 in round 1, 0->2 and 1->3 in round 2, then 0->4 .. 3->7.
  const BroadcastTree t = binomial_broadcast(8, 0);
  CHECK(t.children[0] == std::vector<Rank>{1, 2, 4});
  CHECK(t.children[1] == std::vector<Rank>{3, 5});
  CHECK(t.children[3] == std::vector<Rank>{7});
  CHECK(*t.parent[7] == 3);
  CHECK(binomial_round(1) == 1);
  CHECK(binomial_round(7) == 3);
  // r' receives from r' minus its highest bit, who received in an earlier round, for any root.
  for (std::size_t P : {5u, 8u, 13u, 116u})
    for (Rank root : {Rank{0}, Rank{3}, static_cast<Rank>(P - 1)}) {
      const BroadcastTree b = binomial_broadcast(P, root);
      CHECK(!b.parent[root]);
      CHECK(b.top_down().size() == P);  // a tree spanning every rank
      for (Rank r = 0; r < P; ++r) {
        if (r == root) continue;
        const Rank rel = relative_rank(r, root, P);
        const Rank parent_rel = relative_rank(*b.parent[r], root, P);
        CHECK(parent_rel == rel - (Rank{1} << (binomial_round(rel) - 1)));
        CHECK(binomial_round(parent_rel) < binomial_round(rel));
      }
    }
}

TEST_CASE("binomial broadcast: linear at most 4 ranks", "[broadcast]") {
  const BroadcastTree t = binomial_broadcast(4, 2);
  CHECK(t.children[2] == std::vector<Rank>{3, 0, 1});  // rank order after rotation
  CHECK(binomial_broadcast(5, 0).children[0] == std::vector<Rank>{1, 2, 4});
  CHECK(binomial_broadcast(1, 0).children[0].empty());
}

TEST_CASE("adaptive tree: MPICH labelling of positions", "[broadcast]") {
  CHECK(parent_position(12) == 8);
  CHECK(parent_position(3) == 2);  // Fig. 5: position 3 is the child of position 2
  CHECK(child_positions(12, 16) == std::vector<Position>{13, 14});
  CHECK(child_positions(8, 16) == std::vector<Position>{9, 10, 12});
  CHECK(child_positions(0, 9) == std::vector<Position>{1, 2, 4, 8});
  CHECK(subtree_end(12, 16) == 16);
  CHECK(subtree_end(8, 11) == 11);
}

TEST_CASE("adaptive tree: Table 2 (Balanced-Path, cost 3) and Table 3 (swap 5<->6, cost 8)", "[broadcast]") {
  const DistanceMatrix d = table1();
  AdaptiveTree t = table2_tree(d);
  CHECK(t.placement() == std::vector<Node>{0, 5, 7, 4, 3, 2, 6, 1});
  CHECK(t.leaf_costs() == Leaves{{5, 3}, {4, 3}, {2, 2}, {1, 2}});
  CHECK(t.cost() == 3);
  t.swap_nodes(5, 6);
  CHECK(t.placement() == std::vector<Node>{0, 6, 7, 4, 3, 2, 5, 1});
  CHECK(t.leaf_costs() == Leaves{{6, 0}, {4, 3}, {2, 2}, {1, 8}});
  CHECK(t.cost() == 8);
  CHECK(t.full_cost() == 8);
}

TEST_CASE("adaptive tree: join node 8 (Tables 4 and 6, cost 4 -> 3)", "[broadcast]") {
  const DistanceMatrix d = table5();
  AdaptiveTree t = AdaptiveTree::balanced_path(d, 0, {1, 2, 3, 4, 5, 6, 7});
  REQUIRE(t.cost() == 3);
  AdaptiveTree joined = t;
  joined.join(8);
  CHECK(joined.leaf_costs() == Leaves{{5, 3}, {4, 3}, {2, 2}, {1, 2}, {8, 4}});
  CHECK(joined.cost() == 4);
  const SwapOutcome o = join_and_adapt(t, 8);
  CHECK(o.cost_before == 4);
  CHECK(o.steps == 2);  // (8,1) at cost 4, then (8,6) at cost 3
  CHECK(o.reached_target);
  CHECK(*o.applied == NodePair{8, 6});
  CHECK(t.placement() == std::vector<Node>{0, 5, 7, 4, 3, 2, 8, 1, 6});
  CHECK(t.leaf_costs() == Leaves{{5, 3}, {4, 3}, {2, 2}, {1, 2}, {6, 0}});
  CHECK(t.cost() == 3);
}

TEST_CASE("adaptive tree: node 7 fails (Tables 7 and 8, cost 7 -> 3)", "[broadcast]") {
  const DistanceMatrix d = table1();
  AdaptiveTree left = table2_tree(d);
  CHECK(left.leave(7) == std::optional<Node>{1});
  CHECK(left.placement() == std::vector<Node>{0, 5, 1, 4, 3, 2, 6});
  CHECK(left.leaf_costs() == Leaves{{5, 3}, {4, 7}, {2, 2}, {6, 0}});  // 6 lost its child
  CHECK(left.cost() == 7);

  SECTION("Path_Swapping: its one trial (1,4) costs 8, so the tree stays at 7") {
    AdaptiveTree t = table2_tree(d);
    const SwapOutcome o = leave_and_adapt(t, 7, Swapping::Path);
    CHECK(o.steps == 1);
    CHECK(!o.applied);
    CHECK(t.cost() == 7);
  }
  SECTION("Position_Swapping: (1,4) costs 8, (1,5) costs 3 and is kept") {
    AdaptiveTree t = table2_tree(d);
    const SwapOutcome o = leave_and_adapt(t, 7, Swapping::Position);
    CHECK(o.steps == 2);
    CHECK(*o.applied == NodePair{1, 5});
    CHECK(t.placement() == std::vector<Node>{0, 1, 5, 4, 3, 2, 6});
    CHECK(t.leaf_costs() == Leaves{{1, 2}, {4, 3}, {2, 2}, {6, 0}});
    CHECK(t.cost() == 3);
  }
}

TEST_CASE("swapping: candidate orders of Figs. 2 and 3 on the identity 16-node tree", "[broadcast]") {
  const DistanceMatrix d(16);
  const AdaptiveTree t(d, identity(16));
  // Family, edge 8->12: 12 with its children 13, 14, its parent 8, its siblings 9, 10.
  CHECK(second_nodes(family_candidates(t, 8, 12)) == std::vector<Node>{13, 14, 8, 9, 10});
  // Path, edge 12->14: (12,8), (14,15), then both lists have run out.
  CHECK(path_candidates(t, 12, 14) == std::vector<NodePair>{{12, 8}, {14, 15}});
  // Leaf, edge 8->12: (8,1), (12,1), (8,3), (12,3), ...
  const std::vector<NodePair> leaf = leaf_candidates(t, 8, 12);
  CHECK(std::vector<NodePair>(leaf.begin(), leaf.begin() + 4) ==
        std::vector<NodePair>{{8, 1}, {12, 1}, {8, 3}, {12, 3}});
  CHECK(leaf.size() == 16);  // 8 leaves (odd positions), two trials each
  // Position, node 6.
  CHECK(second_nodes(position_candidates(t, 6)) ==
        std::vector<Node>{7, 5, 8, 4, 9, 3, 10, 2, 11, 1, 12, 13, 14, 15});
  // The root never moves: Position on edge 0->4 moves b.
  CHECK(candidates(Swapping::Position, t, 0, 4).front() == NodePair{4, 5});
}

TEST_CASE("adaptive tree: incremental cost equals a full recompute", "[broadcast]") {
  Random rng(7);
  const std::size_t n = 200;
  DistanceMatrix d(n);
  for (Node u = 0; u < n; ++u)
    for (Node v = u + 1; v < n; ++v) d.set_symmetric(u, v, static_cast<std::uint32_t>(rng.below(11)));
  std::vector<Node> others;
  for (Node v = 1; v < 150; ++v) others.push_back(v);
  AdaptiveTree t = AdaptiveTree::balanced_path(d, 0, others);
  Node next = 150;
  for (int i = 0; i < 300; ++i) {
    const auto u = t.at(static_cast<Position>(1 + rng.below(t.size() - 1)));
    const auto v = t.at(static_cast<Position>(1 + rng.below(t.size() - 1)));
    if (i % 10 == 3 && next < n) t.join(next++);
    else if (i % 10 == 7 && t.size() > 2) t.leave(u);
    else t.swap_nodes(u, v);
    REQUIRE(t.cost() == t.full_cost());
    // Each subtree's largest path cost, against a walk over its positions.
    for (Position p = 0; p < t.size(); p += 1 + static_cast<Position>(rng.below(7))) {
      Cost most = 0;
      for (Position q = p; q < subtree_end(p, t.size()); ++q) most = std::max(most, t.path_cost(q));
      REQUIRE(t.subtree_cost(p) == most);
    }
    REQUIRE(t.subtree_cost(0) == t.cost());
  }
}

TEST_CASE("swapping: never ends above the increased cost, meets the target when it says so", "[broadcast]") {
  Random rng(3);
  const std::size_t n = 64;
  for (int trial = 0; trial < 40; ++trial) {
    DistanceMatrix d(n);
    for (Node u = 0; u < n; ++u)
      for (Node v = u + 1; v < n; ++v) d.set_symmetric(u, v, static_cast<std::uint32_t>(rng.below(11)));
    std::vector<Node> others(n - 1);
    for (Node v = 1; v < n; ++v) others[v - 1] = v;
    const AdaptiveTree built = AdaptiveTree::balanced_path(d, 0, others);
    const Position p = static_cast<Position>(1 + rng.below(n - 1));
    const Node a = built.at(parent_position(p)), b = built.at(p);
    for (Swapping s : kAllSwappings) {
      DistanceMatrix dd = d;
      AdaptiveTree t(dd, built.placement());
      const Cost target = t.cost();
      dd.set_symmetric(a, b, dd(a, b) + 20);
      t.recompute_all();
      const Cost increased = t.cost();
      const SwapOutcome o = adapt_edge(t, s, a, b, target);
      CHECK(o.cost_before == increased);
      CHECK(t.cost() <= increased);
      CHECK(t.cost() == t.full_cost());
      if (o.reached_target) CHECK(t.cost() <= target);
      // A search that missed the target tried every candidate.
      const auto all = static_cast<int>(candidates(s, AdaptiveTree(dd, built.placement()), a, b).size());
      CHECK((o.reached_target || o.steps == all));
    }
  }
}

TEST_CASE("adaptive broadcast: mesh distances, link latencies along XY routes, measured edges", "[broadcast]") {
  const MeshShape mesh{4, 4};
  const Timing t;  // hop = tp + trn = 10 cycles
  std::vector<NodeId> nodes;
  for (NodeId n = 0; n < 16; ++n) nodes.push_back(n);
  AdaptiveBroadcast ab(mesh, t, nodes, 0, Swapping::Position);
  const DistanceMatrix& d = ab.placement().distances();
  const auto id = [&](int x, int y) { return static_cast<Node>(mesh.id({x, y})); };
  CHECK(d(id(0, 0), id(3, 2)) == 40);  // 5 hops: (5 - 1) x 10
  CHECK(d(id(0, 0), id(1, 0)) == 0);   // neighbours: "directly connected"
  // The link (1,0) -> (2,0): XY routes along row 0 that pass x = 1 eastwards cross it.
  ab.observe_links({{mesh.id({1, 0}), Port::PlusX, 300}});
  CHECK(d(id(0, 0), id(3, 0)) == 20 + 300);
  CHECK(d(id(1, 0), id(2, 3)) == 30 + 300);  // east first, then north
  CHECK(d(id(3, 0), id(0, 0)) == 20);        // the other direction is another wire
  CHECK(d(id(0, 1), id(3, 0)) == 30);        // row 1 first, then south at x = 3
  CHECK(ab.cost() == ab.placement().full_cost());

  // Measured: an edge 1000 cycles slower than a one-hop message beyond jitter is a rise.
  AdaptiveBroadcast measured(mesh, t, nodes, 0, Swapping::Position);
  const BroadcastTree tree = measured.tree();
  std::vector<std::optional<std::uint64_t>> latency(16);
  for (Rank r = 1; r < 16; ++r) {
    const int h = hops(mesh.coord(nodes[*tree.parent[r]]), mesh.coord(nodes[r]));
    latency[r] = zero_load_latency(t, h, 2);
  }
  CHECK(measured.observe(latency, 2, 10).raised == 0);  // the estimates were exact
  const Rank victim = tree.children[0].front();
  *latency[victim] += 1000;
  const AdaptStep s = measured.observe(latency, 2, 10);
  CHECK(s.raised == 1);
  CHECK(s.searches == 1);
  CHECK(s.swaps == 1);
  CHECK(measured.cost() == s.cost_after);
  CHECK(s.cost_after <= s.cost_before);  // back at the target: the slow pair is off the tree
}

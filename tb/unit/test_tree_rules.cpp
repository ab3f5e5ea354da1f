// NOTES.md "BTM construction": quadrants, the root rule with every tie-break, and the
// tree heights the notes fix (BTM and CS).
#include <catch2/catch.hpp>

#include <cmath>

#include "support/tree_reference.hpp"
#include "sw/collective/barrier_tree.hpp"

using namespace meshsync;

TEST_CASE("quadrant_of follows the four half-open quadrant rules", "[tree][quadrant]") {
  // Axes: the +X ray belongs to Q+X, +Y to Q+Y, -X to Q-X, -Y to Q-Y.
  CHECK(quadrant_of(1, 0) == Quadrant::PlusX);
  CHECK(quadrant_of(5, 0) == Quadrant::PlusX);
  CHECK(quadrant_of(0, 1) == Quadrant::PlusY);
  CHECK(quadrant_of(0, 7) == Quadrant::PlusY);
  CHECK(quadrant_of(-1, 0) == Quadrant::MinusX);
  CHECK(quadrant_of(-3, 0) == Quadrant::MinusX);
  CHECK(quadrant_of(0, -1) == Quadrant::MinusY);
  CHECK(quadrant_of(0, -9) == Quadrant::MinusY);
  // Diagonals.
  CHECK(quadrant_of(1, 1) == Quadrant::PlusX);
  CHECK(quadrant_of(-1, 1) == Quadrant::PlusY);
  CHECK(quadrant_of(-1, -1) == Quadrant::MinusX);
  CHECK(quadrant_of(1, -1) == Quadrant::MinusY);
  // Interior points.
  CHECK(quadrant_of(3, 2) == Quadrant::PlusX);
  CHECK(quadrant_of(-2, 5) == Quadrant::PlusY);
  CHECK(quadrant_of(-4, -1) == Quadrant::MinusX);
  CHECK(quadrant_of(2, -6) == Quadrant::MinusY);
  CHECK(quadrant_of(0, 0) == Quadrant::Centre);
  // Large (scaled-centroid) offsets do not overflow.
  CHECK(quadrant_of(4096LL * 4096LL, -1) == Quadrant::MinusY);
}

TEST_CASE("quadrant_of partitions every offset exactly as NOTES.md says", "[tree][quadrant]") {
  for (int dx = -6; dx <= 6; ++dx)
    for (int dy = -6; dy <= 6; ++dy) {
      INFO("dx=" << dx << " dy=" << dy);
      CHECK(quadrant_of(dx, dy) == ref::to_quadrant(ref::quadrant(dx, dy, 0, 0)));
    }
}

TEST_CASE("child slot and R bit of each quadrant", "[tree][quadrant]") {
  CHECK(child_slot(Quadrant::PlusX) == 0);
  CHECK(child_slot(Quadrant::MinusX) == 1);
  CHECK(child_slot(Quadrant::PlusY) == 2);
  CHECK(child_slot(Quadrant::MinusY) == 3);
  CHECK(route_for(Quadrant::PlusX) == Route::XY);
  CHECK(route_for(Quadrant::MinusX) == Route::XY);
  CHECK(route_for(Quadrant::PlusY) == Route::YX);
  CHECK(route_for(Quadrant::MinusY) == Route::YX);
}

TEST_CASE("choose_root: nearest member to the centroid, hand-computed", "[tree][root]") {
  const MeshShape m8{8, 8};
  SECTION("single member is its own root") {
    CHECK(choose_root(m8, {m8.id({5, 2})}) == m8.id({5, 2}));
  }
  SECTION("a member at the centroid wins outright") {
    // Centroid (3,3) is a member; (4,3) is nearer to nothing else.
    CHECK(choose_root(m8, ref::ids(m8, {{3, 3}, {1, 3}, {5, 3}, {3, 0}, {3, 6}})) == m8.id({3, 3}));
  }
  SECTION("non-integer centroid, exact comparison") {
    // {(0,0),(1,0),(0,1)}: centroid (1/3,1/3); (0,0) is at distance^2 2/9, others 5/9.
    const MeshShape m2{2, 2};
    CHECK(choose_root(m2, ref::ids(m2, {{0, 0}, {1, 0}, {0, 1}})) == m2.id({0, 0}));
    // {(0,0),(7,0),(7,1)}: centroid (14/3, 1/3): (7,1) d^2=(7/3)^2+(2/3)^2 = 53/9,
    // (7,0): (7/3)^2+(1/3)^2 = 50/9, (0,0): (14/3)^2+... = 197/9.
    CHECK(choose_root(m8, ref::ids(m8, {{0, 0}, {7, 0}, {7, 1}})) == m8.id({7, 0}));
  }
}

TEST_CASE("choose_root tie rules: Q+X, then Q+Y, Q-X, Q-Y, then lowest id", "[tree][root]") {
  const MeshShape m3{3, 3};
  SECTION("2x2 complete: four-way tie, Q+X wins against three lower ids") {
    // Centroid (0.5,0.5): (1,1) Q+X id 3, (0,1) Q+Y id 2, (0,0) Q-X id 0, (1,0) Q-Y id 1.
    const MeshShape m2{2, 2};
    CHECK(choose_root(m2, ref::all_nodes(m2)) == 3u);
  }
  SECTION("diamond around a nonmember centre: Q+X (1 east) beats lower ids") {
    // Centre (1,1) is no member; (2,1) Q+X id 5, (1,2) Q+Y id 7, (0,1) Q-X id 3, (1,0) Q-Y id 1.
    CHECK(choose_root(m3, ref::ids(m3, {{2, 1}, {1, 2}, {0, 1}, {1, 0}})) == m3.id({2, 1}));
  }
  SECTION("Q+Y beats Q-X even with a higher id") {
    // {(1,2),(0,1),(2,0)}: centroid (1,1). (1,2) Q+Y and (0,1) Q-X at distance 1,
    // (2,0) at sqrt 2.
    CHECK(choose_root(m3, ref::ids(m3, {{1, 2}, {0, 1}, {2, 0}})) == m3.id({1, 2}));
  }
  SECTION("Q+Y beats Q-Y even with a higher id") {
    CHECK(choose_root(m3, ref::ids(m3, {{1, 2}, {1, 0}})) == m3.id({1, 2}));
  }
  SECTION("Q+X beats Q-X: two members on a row") {
    CHECK(choose_root(m3, ref::ids(m3, {{0, 1}, {2, 1}})) == m3.id({2, 1}));
  }
  SECTION("Q-X beats Q-Y even with a higher id") {
    // {(0,1),(1,0),(2,2)}: centroid (1,1). (0,1) Q-X id 3 and (1,0) Q-Y id 1 at distance 1.
    CHECK(choose_root(m3, ref::ids(m3, {{0, 1}, {1, 0}, {2, 2}})) == m3.id({0, 1}));
  }
  SECTION("diagonal pairs: Q+X beats Q-X, Q+Y beats Q-Y") {
    // {(0,0),(1,1)} centroid (0.5,0.5): (1,1) Q+X, (0,0) Q-X. {(0,1),(1,0)}: (0,1) Q+Y, (1,0) Q-Y.
    const MeshShape m2{2, 2};
    CHECK(choose_root(m2, ref::ids(m2, {{0, 0}, {1, 1}})) == m2.id({1, 1}));
    CHECK(choose_root(m2, ref::ids(m2, {{0, 1}, {1, 0}})) == m2.id({0, 1}));
  }
  SECTION("same quadrant and same distance: lowest node id") {
    // 6x6: {(5,4),(4,5),(0,0)} has centroid (3,3); (5,4) and (4,5) are both in Q+X at
    // distance^2 5, (0,0) at 18. ids 29 and 34.
    const MeshShape m6{6, 6};
    CHECK(choose_root(m6, ref::ids(m6, {{5, 4}, {4, 5}, {0, 0}})) == 29u);
    // Mirror in Q-X: {(1,2),(2,1),(6,6)} centroid (3,3): (1,2) rel (-2,-1), (2,1) rel (-1,-2):
    // both Q-X, d^2 5; (6,6) d^2 18. ids 15 and 9.
    const MeshShape m7{7, 7};
    CHECK(choose_root(m7, ref::ids(m7, {{1, 2}, {2, 1}, {6, 6}})) == m7.id({2, 1}));
  }
}

TEST_CASE("choose_root matches an independent statement of the rule", "[tree][root]") {
  for (const MeshShape mesh : {MeshShape{2, 2}, MeshShape{3, 5}, MeshShape{8, 8}, MeshShape{16, 4}}) {
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
      const std::size_t count = 1 + seed % static_cast<std::uint64_t>(mesh.nodes());
      const auto members = ref::random_members(mesh, count, seed * 7919);
      INFO("mesh " << mesh.width << "x" << mesh.height << " seed " << seed << " n " << count);
      REQUIRE(choose_root(mesh, members) == ref::root(mesh, members));
    }
    // Symmetric sets make ties common: every subset of a 3x3 block.
    if (mesh.width >= 3 && mesh.height >= 3) {
      for (unsigned mask = 1; mask < 512; ++mask) {
        std::vector<NodeId> members;
        for (int b = 0; b < 9; ++b)
          if (mask & (1u << b)) members.push_back(mesh.id({b % 3, b / 3}));
        INFO("3x3 mask " << mask);
        REQUIRE(choose_root(mesh, members) == ref::root(mesh, members));
      }
    }
  }
}

namespace {
int btm_height(int w, int h) {
  const MeshShape m{w, h};
  return build_btm_tree(m, ref::all_nodes(m)).height();
}
int cs_height(int w, int h) {
  const MeshShape m{w, h};
  return build_cs_tree(m, ref::all_nodes(m)).height();
}
}  // namespace

TEST_CASE("complete-barrier BTM heights of NOTES.md", "[tree][height]") {
  CHECK(btm_height(2, 2) == 2);
  CHECK(btm_height(3, 2) == 2);
  CHECK(btm_height(4, 4) == 3);
  CHECK(btm_height(5, 4) == 3);
  CHECK(btm_height(8, 8) == 4);
  CHECK(btm_height(64, 64) == 7);
}

TEST_CASE("Theorem 1: BTM height <= log2(k) + 1 on a complete k x k mesh", "[tree][height]") {
  for (int k = 2; k <= 64; ++k) {
    const int h = btm_height(k, k);
    const int lg = static_cast<int>(std::ceil(std::log2(static_cast<double>(k))));
    INFO("k = " << k << " height " << h);
    CHECK(h <= lg + 1);
    // On powers of two the bound is met with equality (2->2, 4->3, 8->4, ..., 64->7).
    if ((k & (k - 1)) == 0) CHECK(h == lg + 1);
    CHECK(h >= 1);
  }
}

TEST_CASE("complete-barrier CS heights of NOTES.md", "[tree][height]") {
  CHECK(cs_height(8, 8) == 8);
  CHECK(cs_height(64, 64) == 64);
}

TEST_CASE("tree of one member and of two members", "[tree]") {
  const MeshShape m{8, 8};
  for (BarrierScheme s : {BarrierScheme::BTM, BarrierScheme::CS}) {
    const BarrierTree one = build_tree(s, m, {m.id({3, 4})});
    CHECK(one.height() == 0);
    CHECK(one.root() == m.id({3, 4}));
    CHECK(one.nodes().size() == 1);
    CHECK_FALSE(one.at(m.id({3, 4})).parent);
    CHECK(one.at(m.id({3, 4})).children.empty());
    // (1,1),(5,3): centroid (3,2); tie, (5,3) is in Q+X and wins.
    const BarrierTree two = build_tree(s, m, ref::ids(m, {{1, 1}, {5, 3}}));
    CHECK(two.root() == m.id({5, 3}));
    CHECK(two.height() == 1);
    REQUIRE(two.at(m.id({1, 1})).parent);
    CHECK(*two.at(m.id({1, 1})).parent == m.id({5, 3}));
    CHECK(two.at(m.id({1, 1})).path_hops == 6);
  }
}

TEST_CASE("analytic_cycles evaluates the NOTES.md formulas", "[tree][timing]") {
  const MeshShape m{8, 8};
  const Timing t{1000, 5, 5, 30};
  // One member: 2*(ts + trm) for both schemes.
  CHECK(build_btm_tree(m, {9}).analytic_cycles(t) == 2 * (1000 + 30));
  CHECK(build_cs_tree(m, {9}).analytic_cycles(t) == 2 * (1000 + 30));
  // Two members 6 hops apart, h = 1.
  const auto two = ref::ids(m, {{1, 1}, {5, 3}});
  CHECK(build_btm_tree(m, two).analytic_cycles(t) == 2 * (1000 + 6 * 5 + 5 * 5 + 2 * 30));
  CHECK(build_cs_tree(m, two).analytic_cycles(t) == 2 * (1000 + 6 * 5 + 7 * 30));
  // Row of three around a nonmember: CS path (0,0)-(2,0) plus (2,0)-(4,0).
  const auto row = ref::ids(m, {{0, 0}, {2, 0}, {4, 0}});
  CHECK(build_cs_tree(m, row).analytic_cycles(t) == 2 * (1000 + 2 * 5 + 3 * 30));
  CHECK(build_btm_tree(m, row).analytic_cycles(t) == 2 * (1000 + 2 * 5 + 1 * 5 + 2 * 30));
}

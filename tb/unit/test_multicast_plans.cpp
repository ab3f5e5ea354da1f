// Path-based multicast plans: the snake labelling, DP, MP, CP and QG against the
// testable properties and the worked examples of NOTES-multicast.md (section 6).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "model/core/config.hpp"
#include "model/core/random.hpp"
#include "sw/collective/path_multicast.hpp"
#include "sw/collective/qualified_groups.hpp"

using namespace meshsync;

namespace {

std::vector<NodeId> ids(const MeshShape& m, std::initializer_list<Coord> cs) {
  std::vector<NodeId> out;
  for (Coord c : cs) out.push_back(m.id(c));
  return out;
}

std::vector<int> labels_along(const MeshShape& m, NodeId sender, const Worm& w) {
  std::vector<int> l{snake_label(m, m.coord(sender))};
  for (NodeId n : w.path) l.push_back(snake_label(m, m.coord(n)));
  return l;
}

// Every consecutive pair of nodes on the worm (sender first) is one link apart.
bool connected(const MeshShape& m, NodeId sender, const Worm& w) {
  Coord at = m.coord(sender);
  for (NodeId n : w.path) {
    if (hops(at, m.coord(n)) != 1) return false;
    at = m.coord(n);
  }
  return true;
}

// A worm's hops equal the Manhattan distances between its consecutive visits: every
// segment is minimal.
int visit_distance(const MeshShape& m, NodeId sender, const Worm& w) {
  int sum = 0;
  Coord at = m.coord(sender);
  for (NodeId d : w.dests) {
    sum += hops(at, m.coord(d));
    at = m.coord(d);
  }
  return sum;
}

std::multiset<NodeId> delivered(const MulticastPlan& p) {
  std::multiset<NodeId> out;
  for (const MulticastStep& s : p.steps)
    for (const Worm& w : s.worms) out.insert(w.dests.begin(), w.dests.end());
  return out;
}

struct Case {
  MeshShape mesh;
  NodeId source;
  std::vector<NodeId> dests;
};

// Seeded random multicasts on meshes of odd and even sides.
std::vector<Case> random_cases(std::uint64_t seed, int count) {
  Random rng(seed);
  std::vector<Case> out;
  for (int i = 0; i < count; ++i) {
    const MeshShape m{2 + static_cast<int>(rng.below(15)), 2 + static_cast<int>(rng.below(15))};
    std::vector<NodeId> all(static_cast<std::size_t>(m.nodes()));
    for (std::size_t n = 0; n < all.size(); ++n) all[n] = static_cast<NodeId>(n);
    rng.shuffle(all.begin(), all.end());
    const std::size_t k = 1 + rng.below(std::min<std::uint64_t>(all.size() - 1, 24));
    out.push_back({m, all[0], std::vector<NodeId>(all.begin() + 1, all.begin() + 1 + static_cast<std::ptrdiff_t>(k))});
  }
  return out;
}

}  // namespace

TEST_CASE("snake: labels are a bijection and consecutive labels are neighbours", "[multicast][snake]") {
  for (const MeshShape m : {MeshShape{4, 4}, MeshShape{5, 3}, MeshShape{1, 6}, MeshShape{10, 10}}) {
    std::set<int> seen;
    for (NodeId n = 0; n < static_cast<NodeId>(m.nodes()); ++n) {
      const int l = snake_label(m, m.coord(n));
      CHECK(l >= 0);
      CHECK(l < m.nodes());
      CHECK(snake_node(m, l) == m.coord(n));
      seen.insert(l);
    }
    CHECK(static_cast<int>(seen.size()) == m.nodes());
    for (int l = 0; l + 1 < m.nodes(); ++l) CHECK(hops(snake_node(m, l), snake_node(m, l + 1)) == 1);
  }
  // Row 0 runs east, row 1 west.
  CHECK(snake_label(MeshShape{4, 4}, {3, 0}) == 3);
  CHECK(snake_label(MeshShape{4, 4}, {3, 1}) == 4);
}

TEST_CASE("DP: the worked example of NOTES-multicast (4x4, s = (1,1))", "[multicast][dp]") {
  const MeshShape m{4, 4};
  const NodeId s = m.id({1, 1});
  const MulticastPlan p = plan_multicast(MulticastAlgorithm::DP, m, s, ids(m, {{3, 3}, {0, 2}, {2, 0}, {0, 0}}));
  REQUIRE(p.steps.size() == 1);
  REQUIRE(p.steps[0].worms.size() == 2);
  const Worm& high = p.steps[0].worms[0];
  const Worm& low = p.steps[0].worms[1];
  CHECK(labels_along(m, s, high) == std::vector<int>{6, 7, 8, 9, 10, 11, 12});
  CHECK(high.dests == ids(m, {{0, 2}, {3, 3}}));
  CHECK(labels_along(m, s, low) == std::vector<int>{6, 5, 2, 1, 0});
  CHECK(low.dests == ids(m, {{2, 0}, {0, 0}}));
  CHECK(p.startups() == 1);
  MulticastTiming t;
  t.prep = paper_prep_cycles(MulticastAlgorithm::DP);
  const auto at = zero_load_arrivals(p, t);
  CHECK(at.at(m.id({3, 3})) == 73);  // 2 + 33 + 6 + 32
  CHECK(at.at(m.id({0, 0})) == 71);  // 4 hops
}

TEST_CASE("DP and MP: worms partition D, labels move one way, segments are minimal", "[multicast][dp][mp]") {
  for (const Case& c : random_cases(11, 300)) {
    for (MulticastAlgorithm a : {MulticastAlgorithm::DP, MulticastAlgorithm::MP}) {
      const MulticastPlan p = plan_multicast(a, c.mesh, c.source, c.dests);
      REQUIRE(p.steps.size() == 1);
      CHECK(p.startups() == 1);
      CHECK(p.worms() <= (a == MulticastAlgorithm::DP ? 2u : 4u));
      CHECK(delivered(p) == std::multiset<NodeId>(c.dests.begin(), c.dests.end()));
      std::set<NodeId> first_hops;
      for (const Worm& w : p.steps[0].worms) {
        CHECK(connected(c.mesh, c.source, w));
        CHECK(w.hops() == visit_distance(c.mesh, c.source, w));
        CHECK(w.path.back() == w.dests.back());
        const std::vector<int> l = labels_along(c.mesh, c.source, w);
        for (std::size_t i = 1; i < l.size(); ++i)
          CHECK((w.subnetwork == Subnetwork::High ? l[i] > l[i - 1] : l[i] < l[i - 1]));
        first_hops.insert(w.path.front());
      }
      // MP's worms leave through distinct ports.
      if (a == MulticastAlgorithm::MP) CHECK(first_hops.size() == p.worms());
    }
  }
}

TEST_CASE("MP: quadrant worms on an even and an odd source row", "[multicast][mp]") {
  const MeshShape m{6, 6};
  for (const Coord src : {Coord{2, 2}, Coord{2, 3}}) {
    const MulticastPlan p = plan_multicast(MulticastAlgorithm::MP, m, m.id(src),
                                           ids(m, {{5, 2}, {0, 5}, {0, 2}, {4, 0}, {4, 5}}));
    REQUIRE(p.worms() == 4);
    const int f = src.y % 2 == 0 ? 1 : -1;
    // Q1 ahead along the row, Q2 north, Q3 behind, Q4 south.
    CHECK(m.coord(p.steps[0].worms[0].path.front()) == Coord{src.x + f, src.y});
    CHECK(m.coord(p.steps[0].worms[1].path.front()) == Coord{src.x, src.y + 1});
    CHECK(m.coord(p.steps[0].worms[2].path.front()) == Coord{src.x - f, src.y});
    CHECK(m.coord(p.steps[0].worms[3].path.front()) == Coord{src.x, src.y - 1});
  }
}

TEST_CASE("CP: one XY worm per column half, four per start-up", "[multicast][cp]") {
  for (const Case& c : random_cases(12, 300)) {
    const MulticastPlan p = plan_multicast(MulticastAlgorithm::CP, c.mesh, c.source, c.dests);
    const Coord s = c.mesh.coord(c.source);
    std::set<std::pair<int, bool>> halves;
    for (NodeId d : c.dests) halves.insert({c.mesh.coord(d).x, c.mesh.coord(d).y >= s.y});
    CHECK(p.worms() == halves.size());
    CHECK(p.startups() == static_cast<int>((halves.size() + 3) / 4));
    CHECK(delivered(p) == std::multiset<NodeId>(c.dests.begin(), c.dests.end()));
    for (const MulticastStep& st : p.steps) {
      CHECK(st.worms.size() <= kInjectionChannels);
      for (const Worm& w : st.worms) {
        CHECK(w.xy);
        CHECK(connected(c.mesh, c.source, w));
        CHECK(w.hops() == hops(s, c.mesh.coord(w.dests.back())));  // one XY path
        // At most one turn, X then Y.
        bool turned = false;
        Coord at = s;
        for (NodeId n : w.path) {
          const Coord next = c.mesh.coord(n);
          if (next.y != at.y) turned = true;
          else CHECK_FALSE(turned);
          at = next;
        }
      }
    }
  }
}

TEST_CASE("QG: the worked example of NOTES-multicast (8x8, p = (0,3))", "[multicast][qg]") {
  const MeshShape m{8, 8};
  const NodeId p = m.id({0, 3});
  const auto d = ids(m, {{6, 5}, {7, 3}, {3, 4}, {6, 6}, {4, 4}, {6, 7}, {2, 3}, {1, 5}});
  const QgPartition part = qg_partition(m, p, d, 0.5);
  CHECK(part.divisor_dimension == 1);  // N_x = 2, N_y = 0: cut on Y at 5
  REQUIRE(part.primary.size() == 4);
  std::map<std::set<NodeId>, int> weights;
  for (const QualifiedGroup& g : part.primary) weights[{g.members.begin(), g.members.end()}] = g.weight;
  CHECK(weights == std::map<std::set<NodeId>, int>{
                       {{m.id({2, 3}), m.id({3, 4}), m.id({4, 4})}, 8},
                       {{m.id({7, 3})}, 8},
                       {{m.id({1, 5})}, 4},
                       {{m.id({6, 5}), m.id({6, 6}), m.id({6, 7})}, 13}});
  CHECK(part.average_weight == Approx(8.25));
  std::set<NodeId> reps;
  for (const QualifiedGroup& g : part.groups) reps.insert(g.nearest);
  CHECK(reps == std::set<NodeId>{m.id({2, 3}), m.id({7, 3}), m.id({1, 5}), m.id({6, 5}), m.id({6, 6})});
  CHECK(part.groups.size() == 5);
}

TEST_CASE("QG: phase 3 decides QP <= T exactly, ties qualified", "[multicast][qg]") {
  // Weights 8, 4, 4: W_av = 16/3 and the first group's QP is 1/2 exactly; in floating
  // point it comes out as 0.5000000000000001 and the group would be divided.
  CHECK(qg_qualified(8, 16, 3, 0.5));
  CHECK_FALSE(qg_qualified(8, 16, 3, 0.49));
  CHECK(qg_qualified(4, 16, 3, 0.25));  // |12 - 16| = 4 = 0.25 * 16
  CHECK_FALSE(qg_qualified(4, 16, 3, 0.2499));
  // T as written: 0.3 is 3/10, not the double just above or below it.
  CHECK(qg_qualified(13, 20, 2, 0.3));  // |26 - 20| = 6 = 0.3 * 20
  CHECK_FALSE(qg_qualified(13, 20, 2, 0.2999));
  CHECK(qg_qualified(7, 20, 2, 0.3));
  // T = 0: only a weight on the average; a T too small to matter acts as 0.
  CHECK(qg_qualified(5, 15, 3, 0));
  CHECK_FALSE(qg_qualified(6, 15, 3, 0));
  CHECK(qg_qualified(5, 15, 3, 1e-300));
  CHECK_FALSE(qg_qualified(6, 15, 3, 1e-300));
  CHECK_FALSE(qg_qualified(6, 15, 3, 1.0 / 15));  // |18 - 15| = 3 > 1
  CHECK(qg_qualified(6, 15, 3, 0.2));              // 3 = 0.2 * 15
}

TEST_CASE("QG: groups partition D with disjoint boxes, at most two start-ups", "[multicast][qg]") {
  struct Box {
    int x0, y0, x1, y1;
    bool overlaps(const Box& o) const { return x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1; }
    bool holds(Coord c) const { return c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1; }
  };
  for (const Case& c : random_cases(13, 300)) {
    const QgPartition part = qg_partition(c.mesh, c.source, c.dests, 0.5);
    CHECK(part.primary.size() <= 4);
    CHECK(part.groups.size() <= 16);
    std::multiset<NodeId> all;
    std::vector<Box> boxes;
    for (const QualifiedGroup& g : part.groups) {
      all.insert(g.members.begin(), g.members.end());
      Box b{c.mesh.width, c.mesh.height, -1, -1};
      for (NodeId n : g.members) {
        const Coord x = c.mesh.coord(n);
        b = {std::min(b.x0, x.x), std::min(b.y0, x.y), std::max(b.x1, x.x), std::max(b.y1, x.y)};
      }
      for (const Box& o : boxes) CHECK_FALSE(b.overlaps(o));
      boxes.push_back(b);
    }
    CHECK(all == std::multiset<NodeId>(c.dests.begin(), c.dests.end()));

    const MulticastPlan p = plan_multicast(MulticastAlgorithm::QG, c.mesh, c.source, c.dests);
    CHECK(p.startups() <= 2);
    CHECK(delivered(p) == std::multiset<NodeId>(c.dests.begin(), c.dests.end()));
    // Step 2: each representative's worms stay inside its group's box, so groups share
    // no channel.
    for (std::size_t i = 1; i < p.steps.size(); ++i) {
      const auto g = std::find_if(part.groups.begin(), part.groups.end(),
                                  [&](const QualifiedGroup& q) { return q.nearest == p.steps[i].sender; });
      REQUIRE(g != part.groups.end());
      const Box& b = boxes[static_cast<std::size_t>(g - part.groups.begin())];
      for (const Worm& w : p.steps[i].worms)
        for (NodeId n : w.path) CHECK(b.holds(c.mesh.coord(n)));
    }
  }
}

TEST_CASE("QG: zero-load latency is the sum of the two steps", "[multicast][qg]") {
  const MeshShape m{8, 8};
  const NodeId src = m.id({0, 3});
  const auto d = ids(m, {{6, 5}, {7, 3}, {3, 4}, {6, 6}, {4, 4}, {6, 7}, {2, 3}, {1, 5}});
  const MulticastPlan p = plan_multicast(MulticastAlgorithm::QG, m, src, d);
  CHECK(p.startups() == 2);
  MulticastTiming t;
  t.prep = paper_prep_cycles(MulticastAlgorithm::QG);
  const auto at = zero_load_arrivals(p, t);
  // Along the step-1 worm, h(r) hops to each representative.
  std::map<NodeId, std::uint64_t> rep_hops;
  for (const Worm& w : p.steps[0].worms)
    for (std::size_t i = 0; i < w.dests.size(); ++i) rep_hops[w.dests[i]] = static_cast<std::uint64_t>(w.dest_hops[i]);
  for (const auto& [rep, h] : rep_hops) CHECK(at.at(rep) == 16 + 33 + h + 32);
  for (std::size_t i = 1; i < p.steps.size(); ++i)
    for (const Worm& w : p.steps[i].worms)
      for (std::size_t k = 0; k < w.dests.size(); ++k)
        CHECK(at.at(w.dests[k]) == (16 + 33 + rep_hops.at(p.steps[i].sender) + 32) +
                                       (16 + 33 + static_cast<std::uint64_t>(w.dest_hops[k]) + 32));
  // A representative of a singleton group is reached in one start-up: all singletons,
  // one start-up.
  const MulticastPlan one = plan_multicast(MulticastAlgorithm::QG, m, src, ids(m, {{7, 7}, {7, 0}}));
  CHECK(one.startups() == 1);
}

TEST_CASE("multicast: bad destination lists are refused with one line", "[multicast]") {
  const MeshShape m{4, 4};
  const auto refuses = [&](NodeId s, const std::vector<NodeId>& d, const std::string& says) {
    try {
      check_multicast(m, s, d);
      FAIL("accepted");
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      CHECK(what.find(says) != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
    }
  };
  refuses(0, {}, "at least one destination");
  refuses(0, {16}, "outside the mesh");
  refuses(16, {1}, "outside the mesh");
  refuses(5, {1, 5}, "(1,1) is among the destinations");
  refuses(0, {3, 3}, "(3,0) is listed twice");
  CHECK_NOTHROW(check_multicast(m, 0, {1, 15}));
}

// Structure of BTM and CS trees on many member sets: every member once, parent/child
// links consistent, the four children of a BTM node leave through four different ports
// with the right R bit and slot, Algorithm 1 run by one member gives the register the
// whole-tree construction gives, and the CS parent rule holds by brute force.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "support/tree_reference.hpp"
#include "sw/collective/barrier_tree.hpp"

using namespace meshsync;

namespace {

struct Case {
  MeshShape mesh;
  std::vector<NodeId> members;
  std::string name;
};

std::vector<Case> member_sets() {
  std::vector<Case> out;
  const std::vector<MeshShape> meshes = {{2, 2}, {3, 2}, {5, 4}, {8, 8}, {7, 3},
                                         {1, 9}, {12, 5}, {16, 16}, {4, 11}};
  for (const MeshShape& m : meshes) {
    const std::string dims = std::to_string(m.width) + "x" + std::to_string(m.height);
    out.push_back({m, ref::all_nodes(m), dims + " complete"});
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const std::size_t n = 1 + (seed * 37) % static_cast<std::uint64_t>(m.nodes());
      out.push_back({m, ref::random_members(m, n, seed * 1000 + static_cast<std::uint64_t>(m.nodes())),
                     dims + " random n=" + std::to_string(n) + " seed " + std::to_string(seed)});
    }
  }
  return out;
}

Port slot_port(std::uint8_t slot) {
  switch (slot) {
    case 0: return Port::PlusX;
    case 1: return Port::MinusX;
    case 2: return Port::PlusY;
    case 3: return Port::MinusY;
    default: return Port::Local;
  }
}

// Checks that do not depend on the scheme.
void check_well_formed(const BarrierTree& t, const std::vector<NodeId>& members) {
  const MeshShape& mesh = t.mesh();
  REQUIRE(t.nodes().size() == members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    CHECK(t.nodes()[i].node == members[i]);  // sorted by id, each member once
    CHECK(t.contains(members[i]));
  }
  std::set<NodeId> mset(members.begin(), members.end());
  for (int n = 0; n < mesh.nodes(); ++n) CHECK(t.contains(static_cast<NodeId>(n)) == (mset.count(static_cast<NodeId>(n)) == 1));
  int roots = 0, max_depth = 0;
  std::map<NodeId, int> child_count;
  for (const TreeNode& n : t.nodes()) {
    max_depth = std::max(max_depth, n.depth);
    if (!n.parent) {
      ++roots;
      CHECK(n.node == t.root());
      CHECK(n.depth == 0);
      CHECK(n.path_hops == 0);
      continue;
    }
    REQUIRE(t.contains(*n.parent));
    const TreeNode& p = t.at(*n.parent);
    CHECK(n.depth == p.depth + 1);
    CHECK(n.path_hops == p.path_hops + hops(mesh.coord(n.node), mesh.coord(p.node)));
    // The parent lists this node exactly once among its children.
    int listed = 0;
    for (const ChildLink& c : p.children) listed += c.node == n.node ? 1 : 0;
    CHECK(listed == 1);
    ++child_count[p.node];
  }
  CHECK(roots == 1);
  CHECK(t.root() == ref::root(mesh, members));
  CHECK(t.height() == max_depth);
  for (const TreeNode& n : t.nodes()) {
    CHECK(static_cast<int>(n.children.size()) == child_count[n.node]);
    for (const ChildLink& c : n.children) {
      REQUIRE(t.contains(c.node));
      REQUIRE(t.at(c.node).parent);
      CHECK(*t.at(c.node).parent == n.node);
    }
  }
}

}  // namespace

TEST_CASE("BTM: children leave through pairwise different ports, R bit and slot agree",
          "[tree][btm]") {
  for (const Case& k : member_sets()) {
    INFO(k.name);
    const BarrierTree t = build_btm_tree(k.mesh, k.members);
    check_well_formed(t, k.members);
    for (const TreeNode& n : t.nodes()) {
      const Coord pc = k.mesh.coord(n.node);
      REQUIRE(n.children.size() <= 4);
      std::set<Port> used;
      std::set<std::uint8_t> slots;
      for (const ChildLink& c : n.children) {
        const TreeNode& child = t.at(c.node);
        const Coord cc = k.mesh.coord(c.node);
        const Port out = next_port(pc, cc, c.route);
        CHECK(out != Port::Local);
        CHECK(used.insert(out).second);  // no port used twice
        // The slot is the child's quadrant around the parent, and it fixes the port.
        const Quadrant q = quadrant_of(cc.x - pc.x, cc.y - pc.y);
        CHECK(child.slot == child_slot(q));
        CHECK(slots.insert(child.slot).second);
        CHECK(out == slot_port(child.slot));
        // R bit: XY for C+X / C-X, YX for C+Y / C-Y; distribution uses the same.
        CHECK(child.r == route_for(q));
        CHECK(c.route == child.r);
        CHECK(child.r == ((child.slot <= 1) ? Route::XY : Route::YX));
      }
    }
    // Every member's subtree lies in its quadrant around its parent (recursive split).
    for (const TreeNode& n : t.nodes()) {
      if (!n.parent) continue;
      const Coord pc = k.mesh.coord(*n.parent);
      const Coord nc = k.mesh.coord(n.node);
      const Quadrant q = quadrant_of(nc.x - pc.x, nc.y - pc.y);
      std::vector<NodeId> stack(1, n.node);
      while (!stack.empty()) {
        const NodeId d = stack.back();
        stack.pop_back();
        const Coord dc = k.mesh.coord(d);
        CHECK(quadrant_of(dc.x - pc.x, dc.y - pc.y) == q);
        for (const ChildLink& c : t.at(d).children) stack.push_back(c.node);
      }
    }
  }
}

TEST_CASE("BTM: Algorithm 1 run by each member equals register_for", "[tree][btm]") {
  for (const Case& k : member_sets()) {
    if (k.mesh.nodes() > 64 && k.members.size() > 64) continue;  // quadratic; keep it quick
    INFO(k.name);
    const BarrierTree t = build_btm_tree(k.mesh, k.members);
    const std::uint8_t gid = static_cast<std::uint8_t>(k.members.size() % 251 + 3);
    for (NodeId me : k.members) {
      INFO("member " << me);
      const BarrierRegisterSetup a = btm_setup_register(k.mesh, k.members, me, gid);
      const BarrierRegisterSetup b = t.register_for(me, gid);
      CHECK(a.gid == gid);
      CHECK(b.gid == gid);
      CHECK_FALSE(a.transit);
      CHECK_FALSE(b.transit);
      CHECK(a.parent == b.parent);
      if (a.parent) {
        CHECK(a.parent_route == b.parent_route);
        CHECK(a.slot_at_parent == b.slot_at_parent);
      }
      REQUIRE(a.children.size() == b.children.size());
      for (std::size_t i = 0; i < a.children.size(); ++i) {
        CHECK(a.children[i].node == b.children[i].node);
        CHECK(a.children[i].route == b.children[i].route);
      }
      // The register agrees with the tree node.
      const TreeNode& tn = t.at(me);
      CHECK(b.parent == tn.parent);
      if (tn.parent) {
        CHECK(b.parent_route == tn.r);
        CHECK(b.slot_at_parent == tn.slot);
        CHECK(b.slot_at_parent <= 3);
      }
    }
  }
}

TEST_CASE("BTM: a complete 64x64 barrier, per member registers agree (sampled)", "[tree][btm]") {
  const MeshShape m{64, 64};
  const auto all = ref::all_nodes(m);
  const BarrierTree t = build_btm_tree(m, all);
  CHECK(t.nodes().size() == 4096);
  for (NodeId me : {0u, 1u, 63u, 64u, 2079u, 2080u, 4095u, 1234u, 3000u}) {
    const auto a = btm_setup_register(m, all, me, 1);
    const auto b = t.register_for(me, 1);
    CHECK(a.parent == b.parent);
    CHECK(a.slot_at_parent == b.slot_at_parent);
    REQUIRE(a.children.size() == b.children.size());
    for (std::size_t i = 0; i < a.children.size(); ++i) CHECK(a.children[i].node == b.children[i].node);
  }
}

TEST_CASE("CS: parent rule checked by brute force", "[tree][cs]") {
  for (const Case& k : member_sets()) {
    INFO(k.name);
    const BarrierTree t = build_cs_tree(k.mesh, k.members);
    check_well_formed(t, k.members);
    const NodeId root = t.root();
    const Coord rc = k.mesh.coord(root);
    for (const TreeNode& n : t.nodes()) {
      if (n.node == root) continue;
      INFO("member " << n.node);
      const Coord mc = k.mesh.coord(n.node);
      const int q = ref::quadrant(mc.x, mc.y, rc.x, rc.y);
      const int dm = hops(mc, rc);
      NodeId best = root;
      int best_d = hops(mc, rc);
      for (NodeId v : k.members) {
        if (v == n.node || v == root) continue;
        const Coord vc = k.mesh.coord(v);
        if (ref::quadrant(vc.x, vc.y, rc.x, rc.y) != q) continue;
        if (hops(vc, rc) >= dm) continue;
        const int d = hops(vc, mc);
        if (d < best_d || (d == best_d && v < best)) {
          best = v;
          best_d = d;
        }
      }
      REQUIRE(n.parent);
      CHECK(*n.parent == best);
      // CS reduction goes XY to the parent, distribution YX back over the same routers.
      CHECK(n.r == Route::XY);
      for (const ChildLink& c : n.children) CHECK(c.route == Route::YX);
      // Strictly closer to the root: depth grows with distance.
      CHECK(hops(k.mesh.coord(*n.parent), rc) < dm);
    }
    // CS registers are transit registers.
    for (NodeId m : k.members) CHECK(t.register_for(m, 5).transit);
  }
}

TEST_CASE("CS parent: hand-computed cases", "[tree][cs]") {
  const MeshShape m{8, 8};
  // Row (0,0),(2,0),(4,0): root (2,0), both others hang off the root through nonmember routers.
  const BarrierTree row = build_cs_tree(m, ref::ids(m, {{0, 0}, {2, 0}, {4, 0}}));
  CHECK(row.root() == m.id({2, 0}));
  CHECK(*row.at(m.id({0, 0})).parent == m.id({2, 0}));
  CHECK(*row.at(m.id({4, 0})).parent == m.id({2, 0}));
  CHECK(row.height() == 1);
  // Column chain: (3,3),(3,4),(3,5),(3,6),(3,2): centroid (3,4) is the root; (3,5)->(3,4),
  // (3,6)->(3,5), (3,3)->(3,4), (3,2)->(3,3).
  const BarrierTree col = build_cs_tree(m, ref::ids(m, {{3, 2}, {3, 3}, {3, 4}, {3, 5}, {3, 6}}));
  CHECK(col.root() == m.id({3, 4}));
  CHECK(*col.at(m.id({3, 6})).parent == m.id({3, 5}));
  CHECK(*col.at(m.id({3, 5})).parent == m.id({3, 4}));
  CHECK(*col.at(m.id({3, 3})).parent == m.id({3, 4}));
  CHECK(*col.at(m.id({3, 2})).parent == m.id({3, 3}));
  CHECK(col.height() == 2);
  // Different quadrants do not adopt each other. Centroid (13/3, 4): root (4,4). (6,3) is in
  // Q-Y of the root; (6,4) is 1 hop from it and closer to the root but lies in Q+X, so the
  // parent of (6,3) is (4,3) (Q-Y, 2 hops away), not (6,4) and not the root (3 hops).
  const BarrierTree q = build_cs_tree(m, ref::ids(m, {{4, 4}, {6, 4}, {6, 3}, {4, 3}, {2, 4}, {4, 6}}));
  REQUIRE(q.root() == m.id({4, 4}));
  CHECK(*q.at(m.id({6, 3})).parent == m.id({4, 3}));  // 2 hops, same quadrant, closer to root
  CHECK(*q.at(m.id({6, 4})).parent == m.id({4, 4}));
}

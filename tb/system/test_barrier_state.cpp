// Where barrier state lives: BTM programs member routers only; CS also programs the
// routers on every tree path; with too few registers joins fall back to the NI.
#include <catch2/catch.hpp>

#include <set>

#include "support/sim_helpers.hpp"
#include "support/tree_reference.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

// Routers a CS setup message from every non-root member to its parent programs: the
// member's own router and every router it crosses before the parent (XY route).
std::set<NodeId> cs_path_routers(const BarrierTree& t) {
  std::set<NodeId> out;
  const MeshShape& mesh = t.mesh();
  for (const TreeNode& n : t.nodes()) {
    if (!n.parent) continue;
    Coord here = mesh.coord(n.node);
    const Coord dest = mesh.coord(*n.parent);
    while (here != dest) {
      out.insert(mesh.id(here));
      here = step(here, next_port(here, dest, Route::XY));
    }
  }
  return out;
}

struct Snapshot {
  std::vector<std::size_t> in_use;           // by router, after join
  std::vector<int> member_reg;               // by router: 1 member register for gid, 0 other, -1 none
  std::vector<std::size_t> in_use_after;     // after leave
  std::vector<bool> hardware;                // by member index
};

Snapshot join_and_leave(const MeshShape& mesh, const std::vector<NodeId>& members,
                        BarrierScheme scheme, std::uint32_t registers = 4) {
  Machine m(make_config(mesh, {20, 1, 1, 3}, registers));
  const Communicator c = m.groups().create(mesh, members, scheme);
  Snapshot s;
  s.hardware.assign(members.size(), false);
  std::size_t joined = 0, left = 0;
  sc_core::sc_event all_joined, leave_now, all_left;
  for (std::size_t k = 0; k < members.size(); ++k)
    m.spawn("member_" + std::to_string(k), [&, k] {
      Node& node = m.node(members[k]);
      s.hardware[k] = join(node, c);
      if (++joined == members.size()) all_joined.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait(leave_now);
      barrier(node, c);  // the group works
      leave(node, c);
      if (++left == members.size()) all_left.notify(sc_core::SC_ZERO_TIME);
    });
  m.spawn("driver", [&] {
    if (joined < members.size()) sc_core::wait(all_joined);
    m.mesh().wait_idle();  // CS setup messages have reached their parents
    for (NodeId n = 0; n < static_cast<NodeId>(mesh.nodes()); ++n) {
      const auto& regs = m.mesh().core().router(n).registers();
      s.in_use.push_back(regs.in_use());
      const int r = regs.lookup(c.gid);
      s.member_reg.push_back(r < 0 ? -1 : regs.at(r).member() ? 1 : 0);
    }
    leave_now.notify(sc_core::SC_ZERO_TIME);
    if (left < members.size()) sc_core::wait(all_left);
    m.mesh().wait_idle();
    for (NodeId n = 0; n < static_cast<NodeId>(mesh.nodes()); ++n)
      s.in_use_after.push_back(m.mesh().core().router(n).registers().in_use());
  });
  m.run();
  return s;
}

}  // namespace

TEST_CASE("BTM leaves nonmember routers without barrier state", "[system][state][btm]") {
  const MeshShape mesh{8, 8};
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto members = ref::random_members(mesh, 6 + 7 * seed, seed + 100);
    const std::set<NodeId> mset(members.begin(), members.end());
    const Snapshot s = join_and_leave(mesh, members, BarrierScheme::BTM);
    for (NodeId n = 0; n < 64; ++n) {
      INFO("seed " << seed << " router " << n << (mset.count(n) ? " member" : " nonmember"));
      CHECK(s.in_use[n] == (mset.count(n) ? 1u : 0u));
      CHECK(s.member_reg[n] == (mset.count(n) ? 1 : -1));
      CHECK(s.in_use_after[n] == 0);
    }
    for (bool hw : s.hardware) CHECK(hw);
  }
}

TEST_CASE("CS programs the routers on its paths, members or not", "[system][state][cs]") {
  const MeshShape mesh{8, 8};
  SECTION("row with gaps: (1,0) and (3,0) are CS path routers") {
    const auto members = ref::ids(mesh, {{0, 0}, {2, 0}, {4, 0}});
    const Snapshot s = join_and_leave(mesh, members, BarrierScheme::CS);
    CHECK(s.in_use[mesh.id({1, 0})] == 1);
    CHECK(s.in_use[mesh.id({3, 0})] == 1);
    CHECK(s.member_reg[mesh.id({1, 0})] == 0);  // a path entry, not a member register
    CHECK(s.member_reg[mesh.id({3, 0})] == 0);
    CHECK(s.in_use[mesh.id({5, 0})] == 0);
    CHECK(s.in_use[mesh.id({1, 1})] == 0);
    for (NodeId m : members) CHECK(s.member_reg[m] == 1);
    for (NodeId n = 0; n < 64; ++n) CHECK(s.in_use_after[n] == 0);
  }
  SECTION("random groups: exactly members and path routers hold a register") {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const auto members = ref::random_members(mesh, 5 + 4 * seed, seed + 200);
      const std::set<NodeId> mset(members.begin(), members.end());
      const std::set<NodeId> path = cs_path_routers(build_cs_tree(mesh, members));
      const Snapshot s = join_and_leave(mesh, members, BarrierScheme::CS);
      std::size_t nonmember_with_state = 0;
      for (NodeId n = 0; n < 64; ++n) {
        const bool expect = mset.count(n) || path.count(n);
        INFO("seed " << seed << " router " << n);
        CHECK(s.in_use[n] == (expect ? 1u : 0u));
        if (!mset.count(n) && s.in_use[n]) ++nonmember_with_state;
        CHECK(s.in_use_after[n] == 0);
      }
      std::size_t nonmember_paths = 0;
      for (NodeId n : path) nonmember_paths += mset.count(n) ? 0 : 1;
      CHECK(nonmember_with_state == nonmember_paths);
      if (seed == 1) CHECK(nonmember_with_state > 0);
    }
  }
}

TEST_CASE("register exhaustion: joins that found no register", "[system][registers]") {
  const MeshShape mesh{6, 6};
  const auto a = ref::random_members(mesh, 14, 1);
  const auto b = ref::random_members(mesh, 14, 2);
  std::set<NodeId> both;
  for (NodeId n : a)
    if (std::binary_search(b.begin(), b.end(), n)) both.insert(n);
  REQUIRE(!both.empty());
  const Timing t{100, 2, 2, 10};

  SECTION("no registers: every join falls back, barriers still work and are slower") {
    for (BarrierScheme s : {BarrierScheme::BTM, BarrierScheme::CS}) {
      Machine m(make_config(mesh, t, 0));
      BarrierMeasurement r;
      std::uint64_t analytic = 0;
      run_driver(m, [&] {
        const Communicator c = m.groups().create(mesh, a, s);
        analytic = c.tree->analytic_cycles(t);
        r = measure_barrier(m, c);
      });
      INFO(scheme_name(s));
      CHECK(r.software_fallbacks == a.size());
      CHECK(r.latency_cycles >= analytic);
      // Every forwarding step pays a start-up in software: strictly slower here.
      CHECK(r.latency_cycles > analytic);
      for (NodeId n = 0; n < 36; ++n) CHECK(m.mesh().ni(n).software_groups() == 0);
    }
  }

  SECTION("one register, two overlapping live groups: the second falls back where they overlap") {
    Machine m(make_config(mesh, t, 1));
    std::size_t a_hw = 0, a_rounds = 0;
    BarrierMeasurement rb;
    std::uint64_t analytic_b = 0;
    std::size_t a_joined = 0;
    sc_core::sc_event a_all_joined, b_done;
    bool b_finished = false;
    const Communicator ca = m.groups().create(mesh, a, BarrierScheme::BTM);
    for (NodeId n : a)
      m.spawn("a_" + std::to_string(n), [&, n] {
        a_hw += join(m.node(n), ca) ? 1 : 0;
        if (++a_joined == a.size()) a_all_joined.notify(sc_core::SC_ZERO_TIME);
        if (!b_finished) sc_core::wait(b_done);
        // Group A still synchronises after B came and went.
        for (int i = 0; i < 3; ++i) barrier(m.node(n), ca);
        ++a_rounds;
        leave(m.node(n), ca);
      });
    m.spawn("driver", [&] {
      if (a_joined < a.size()) sc_core::wait(a_all_joined);
      m.mesh().wait_idle();
      const Communicator cb = m.groups().create(mesh, b, BarrierScheme::BTM);
      analytic_b = cb.tree->analytic_cycles(t);
      rb = measure_barrier(m, cb);
      b_finished = true;
      b_done.notify(sc_core::SC_ZERO_TIME);
    });
    m.run();
    CHECK(a_hw == a.size());
    CHECK(rb.software_fallbacks == both.size());
    CHECK(rb.latency_cycles >= analytic_b);
    CHECK(a_rounds == a.size());
    for (NodeId n = 0; n < 36; ++n) CHECK(m.mesh().core().router(n).registers().in_use() == 0);
  }
}

namespace {

// Measures a BTM group on a mesh with one register per router, after each router in
// `hogged` gave its only register to a one-member group: those members of `members` keep
// their register in node memory.
BarrierMeasurement with_fallbacks(const MeshShape& mesh, const std::vector<NodeId>& members,
                                  const std::vector<Coord>& hogged, const Timing& t,
                                  std::uint64_t& analytic, NodeId* root = nullptr) {
  Machine m(make_config(mesh, t, 1));
  BarrierMeasurement r;
  run_driver(m, [&] {
    std::vector<Communicator> hogs;
    for (Coord h : hogged) {
      hogs.push_back(m.groups().create(mesh, {mesh.id(h)}, BarrierScheme::BTM));
      CHECK(join(m.node(mesh.id(h)), hogs.back()));
    }
    const Communicator c = m.groups().create(mesh, members, BarrierScheme::BTM);
    if (root) *root = c.tree->root();
    analytic = c.tree->analytic_cycles(t);
    r = measure_barrier(m, c);
    for (std::size_t i = 0; i < hogs.size(); ++i) leave(m.node(mesh.id(hogged[i])), hogs[i]);
  });
  return r;
}

// The pair {(2,2),(0,0)} on a 4x4 mesh: root (2,2) (tie at the centroid (1,1): Q+X wins).
BarrierMeasurement pair_with_one_fallback(Coord hogged, const Timing& t, std::uint64_t& analytic) {
  const MeshShape mesh{4, 4};
  NodeId root = 0;
  const auto r = with_fallbacks(mesh, ref::ids(mesh, {{2, 2}, {0, 0}}), {hogged}, t, analytic, &root);
  CHECK(root == mesh.id({2, 2}));
  return r;
}

}  // namespace

TEST_CASE("software fallback of a member with children costs 2*(ts + trm + trn)", "[system][registers][fallback]") {
  // Row (0,0),(1,0),(3,0),(4,0): root (3,0); C-X (1,0) has the child (0,0); C+X (4,0).
  // Slowest path (3,0)->(1,0)->(0,0). With (1,0) in software every phase pays the
  // software's register operation (trm), one start-up and one more pass through its
  // router (docs/barrier-fallback.md).
  const MeshShape mesh{6, 2};
  const Timing t{100, 2, 3, 10};
  const auto members = ref::ids(mesh, {{0, 0}, {1, 0}, {3, 0}, {4, 0}});
  std::uint64_t hw = 0, analytic = 0;
  const BarrierMeasurement base = with_fallbacks(mesh, members, {}, t, hw);
  CHECK(base.latency_cycles == hw);
  CHECK(hw == 2 * (100 + 3 * 2 + 1 * 3 + 3 * 10));
  const BarrierMeasurement r = with_fallbacks(mesh, members, {{1, 0}}, t, analytic);
  CHECK(analytic == hw);
  CHECK(r.software_fallbacks == 1);
  CHECK(r.latency_cycles == hw + 2 * (t.ts + t.trm + t.trn));
  CHECK(r.hops == base.hops);
}

TEST_CASE("software fallback at the root costs extra, never less than hardware", "[system][registers][fallback]") {
  // NOTES.md: a group whose router has no free register works "at a documented extra
  // cost"; the analytic value is the zero-load lower bound of the hardware barrier.
  const Timing t{100, 2, 2, 10};
  std::uint64_t analytic = 0;
  const BarrierMeasurement r = pair_with_one_fallback({2, 2}, t, analytic);
  CHECK(r.software_fallbacks == 1);
  CHECK(analytic == 2 * (100 + 4 * 2 + 3 * 2 + 2 * 10));
  CHECK(r.latency_cycles >= analytic);
}

TEST_CASE("software fallback at a leaf costs extra, never less than hardware", "[system][registers][fallback]") {
  const Timing t{100, 2, 2, 10};
  std::uint64_t analytic = 0;
  const BarrierMeasurement r = pair_with_one_fallback({0, 0}, t, analytic);
  CHECK(r.software_fallbacks == 1);
  CHECK(r.latency_cycles >= analytic);
}

TEST_CASE("CS: a path router without a free register stays out of the tree", "[system][registers][cs]") {
  // Row (0,0),(2,0): root (2,0), the CS path crosses the nonmember router (1,0), whose
  // only register another group holds. Both members have hardware registers; the
  // barrier completes, and (1,0) forwards its messages as a nonmember would (trn instead
  // of trm, once per phase: docs/barrier-fallback.md).
  const MeshShape mesh{4, 2};
  const Timing t{100, 2, 2, 10};
  Machine m(make_config(mesh, t, 1));
  BarrierMeasurement r;
  std::uint64_t analytic = 0;
  std::size_t in_use_at_1_0 = 0;
  run_driver(m, [&] {
    const Communicator hog = m.groups().create(mesh, {mesh.id({1, 0})}, BarrierScheme::BTM);
    CHECK(join(m.node(mesh.id({1, 0})), hog));
    const Communicator c = m.groups().create(mesh, ref::ids(mesh, {{0, 0}, {2, 0}}), BarrierScheme::CS);
    analytic = c.tree->analytic_cycles(t);
    r = measure_barrier(m, c);
    in_use_at_1_0 = m.mesh().core().router(mesh.id({1, 0})).registers().in_use();
    leave(m.node(mesh.id({1, 0})), hog);
  });
  CHECK(analytic == 2 * (100 + 2 * 2 + 3 * 10));
  CHECK(r.software_fallbacks == 0);
  CHECK(in_use_at_1_0 == 1);
  CHECK(r.latency_cycles == analytic - 2 * (t.trm - t.trn));
}

TEST_CASE("a member with more children than a register holds falls back", "[system][registers][cs]") {
  // Around (4,4): two members in each quadrant at 2 hops with nothing closer; the CS root
  // adopts all eight, the BTM root only four.
  const MeshShape mesh{8, 8};
  const auto members = ref::ids(mesh, {{4, 4}, {6, 4}, {5, 5}, {4, 6}, {3, 5}, {2, 4}, {3, 3}, {4, 2}, {5, 3}});
  const BarrierTree cs = build_cs_tree(mesh, members);
  REQUIRE(cs.root() == mesh.id({4, 4}));
  REQUIRE(cs.at(cs.root()).children.size() == 8);
  const Timing t{60, 2, 1, 7};
  for (std::uint32_t max_children : {4u, 8u}) {
    for (BarrierScheme s : {BarrierScheme::CS, BarrierScheme::BTM}) {
      NetworkConfig cfg = make_config(mesh, t);
      cfg.router.max_children = max_children;
      Machine m(cfg);
      BarrierMeasurement r;
      std::uint64_t analytic = 0;
      run_driver(m, [&] {
        const Communicator c = m.groups().create(mesh, members, s);
        analytic = c.tree->analytic_cycles(t);
        r = measure_barrier(m, c);
      });
      INFO(scheme_name(s) << " max_children " << max_children);
      const bool expect_fallback = s == BarrierScheme::CS && max_children < 8;
      CHECK(r.software_fallbacks == (expect_fallback ? 1u : 0u));
      if (!expect_fallback) CHECK(r.latency_cycles >= analytic);
      // BTM: C+X (5,5) and C+Y (4,6) both reach the root through its +Y input in the same
      // cycle (XY and YX sync VCs); the input passes one VC per cycle: one cycle late.
      if (s == BarrierScheme::BTM) CHECK(r.latency_cycles == analytic + 1);
    }
  }
}

TEST_CASE("a software root that arrives last is not released before it arrived", "[system][registers][fallback]") {
  // Registers = 0: the pair {(2,2),(0,0)} lives in node memory. The leaf arrives early;
  // its message is waiting at the root's NI when the root arrives much later. The root's
  // own arrival completes the reduction; the distribution starts after one start-up
  // (docs/barrier-fallback.md), so nobody can be released in the cycle of that arrival.
  const MeshShape mesh{4, 4};
  const Timing t{20, 1, 1, 5};
  for (std::uint64_t root_delay : {200u, 600u}) {
    Machine m(make_config(mesh, t, 0));
    const Communicator c = m.groups().create(mesh, ref::ids(mesh, {{2, 2}, {0, 0}}), BarrierScheme::BTM);
    REQUIRE(c.tree->root() == mesh.id({2, 2}));
    std::uint64_t root_arrival = 0, root_release = 0, leaf_release = 0;
    std::size_t joined = 0;
    sc_core::sc_event all_joined;
    for (NodeId n : {mesh.id({2, 2}), mesh.id({0, 0})})
      m.spawn("member_" + std::to_string(n), [&, n] {
        CHECK_FALSE(join(m.node(n), c));
        if (++joined == 2) all_joined.notify(sc_core::SC_ZERO_TIME);
        else sc_core::wait(all_joined);
        if (n == c.tree->root()) {
          wait_cycles(root_delay);
          root_arrival = m.now();
          root_release = barrier(m.node(n), c);
        } else {
          leaf_release = barrier(m.node(n), c);
        }
      });
    m.run();
    INFO("root arrives at " << root_arrival << ", released at " << root_release
                            << "; leaf released at " << leaf_release);
    CHECK(root_release > root_arrival);
    CHECK(root_release >= root_arrival + t.ts);
    CHECK(leaf_release > root_arrival + t.ts);
  }
}

TEST_CASE("a one-member group in node memory still takes its start-up", "[system][registers][fallback]") {
  const MeshShape mesh{3, 3};
  const Timing t{20, 1, 1, 5};
  Machine m(make_config(mesh, t, 0));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> epochs;
  run_driver(m, [&] {
    const Communicator c = m.groups().create(mesh, {4}, BarrierScheme::BTM);
    CHECK_FALSE(join(m.node(4), c));
    for (int i = 0; i < 3; ++i) {
      const std::uint64_t a = m.now();
      epochs.emplace_back(a, barrier(m.node(4), c));
    }
    leave(m.node(4), c);
  });
  REQUIRE(epochs.size() == 3);
  for (const auto& [arrive, release] : epochs) {
    INFO("arrived " << arrive << " released " << release);
    CHECK(release >= arrive + t.ts);
  }
}

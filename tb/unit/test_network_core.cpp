// The router core and the mesh scheduler without SystemC: zero-load latency of worms,
// the credit loop and buffer depth, wormhole ordering, sync messages through barrier
// registers (a whole BTM barrier driven by hand), stuck reports and deadlock detection.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "model/core/network_core.hpp"
#include "model/core/packet.hpp"
#include "model/core/reduction_message.hpp"
#include "support/recording_sink.hpp"
#include "support/tree_reference.hpp"
#include "sw/collective/barrier_tree.hpp"

using namespace meshsync;
using meshsync::test::Ejection;
using meshsync::test::RecordingSink;

namespace {

NetworkConfig config(MeshShape mesh, Timing t, std::uint32_t depth = 16) {
  NetworkConfig c;
  c.mesh = mesh;
  c.timing = t;
  c.router.buffer_depth = depth;
  return c;
}

// Injects one worm of `length` flits at `cycle` and returns the tail's ejection cycle.
std::uint64_t worm_latency(NetworkCore& net, RecordingSink& sink, NodeId src, NodeId dest,
                           std::uint16_t length, std::uint64_t cycle) {
  const std::uint64_t id = net.new_packet_id();
  std::vector<std::uint32_t> words;
  for (std::uint16_t i = 1; i < length; ++i) words.push_back(1000u * static_cast<std::uint32_t>(id) + i);
  sink.board.expect(id, src, dest, length, cycle, words);
  for (const Flit& f : make_worm(id, src, dest, length, cycle, words)) net.inject(src, f, cycle);
  net.run_until_idle();
  std::uint64_t tail = 0;
  int flits = 0;
  for (const Ejection& e : sink.out)
    if (!e.flit.sync && e.flit.packet == id) {
      ++flits;
      CHECK(e.node == dest);
      if (e.flit.tail) tail = e.cycle;
      if (!e.flit.head) CHECK(e.flit.payload == 1000u * static_cast<std::uint32_t>(id) + e.flit.seq);
    }
  CHECK(flits == length);
  return tail;
}

const Timing kTimings[] = {{1000, 5, 5, 30}, {7, 1, 1, 3}, {50, 3, 2, 9}};

}  // namespace

TEST_CASE("core: zero-load worm latency is d*tp + (d+1)*trn + L-1 after injection", "[core][latency]") {
  const MeshShape mesh{6, 5};
  const std::vector<std::pair<Coord, Coord>> pairs = {
      {{0, 0}, {1, 0}}, {{0, 0}, {5, 4}}, {{5, 4}, {0, 0}}, {{2, 3}, {2, 0}},
      {{4, 1}, {0, 1}}, {{1, 4}, {3, 2}}, {{3, 0}, {3, 4}}};
  for (const Timing& t : kTimings) {
    for (std::uint16_t L : {1, 2, 5, 20}) {
      NetworkCore net(config(mesh, t));
      RecordingSink sink;
      net.set_sink(&sink);
      std::uint64_t at = 3;
      for (const auto& [a, b] : pairs) {
        const int d = hops(a, b);
        const std::uint64_t tail = worm_latency(net, sink, mesh.id(a), mesh.id(b), L, at);
        INFO("ts/tp/trn/trm " << t.ts << "/" << t.tp << "/" << t.trn << "/" << t.trm << " L " << L
                              << " (" << a.x << "," << a.y << ")->(" << b.x << "," << b.y << ")");
        CHECK(tail - at == static_cast<std::uint64_t>(d) * t.tp + static_cast<std::uint64_t>(d + 1) * t.trn + (L - 1u));
        at = net.last_cycle() + 17;
      }
      CHECK(sink.board.errors().empty());
      CHECK(sink.board.in_flight() == 0);
    }
  }
}

TEST_CASE("core: full throughput needs buffer depth >= 2*tp + trn + 1", "[core][credits]") {
  const MeshShape mesh{5, 1};
  for (const Timing& t : {Timing{10, 1, 1, 3}, Timing{10, 3, 2, 9}, Timing{10, 5, 5, 30}}) {
    const std::uint32_t need = 2 * t.tp + t.trn + 1;
    const std::uint16_t L = 60;
    const std::uint64_t ideal = 4 * t.tp + 5 * t.trn + (L - 1u);
    INFO("tp " << t.tp << " trn " << t.trn << " need " << need);
    {
      NetworkCore net(config(mesh, t, need));
      RecordingSink sink;
      net.set_sink(&sink);
      CHECK(worm_latency(net, sink, 0, 4, L, 0) == ideal);
    }
    {
      NetworkCore net(config(mesh, t, need - 1));
      RecordingSink sink;
      net.set_sink(&sink);
      CHECK(worm_latency(net, sink, 0, 4, L, 0) > ideal);
      CHECK(sink.board.errors().empty());
    }
    {
      // A depth of one flit still delivers everything, in order.
      NetworkCore net(config(mesh, t, 1));
      RecordingSink sink;
      net.set_sink(&sink);
      worm_latency(net, sink, 0, 4, L, 0);
      CHECK(sink.board.errors().empty());
      CHECK(sink.board.delivered_packets() == 1);
    }
  }
}

namespace {
// Many crossing worms at once on a 4x4 mesh with 6-flit worm buffers; runs to idle.
std::uint64_t crossing_load(NetworkCore& net, RecordingSink& sink) {
  std::uint64_t id = 0;
  for (NodeId s = 0; s < 16; ++s)
    for (NodeId d : {static_cast<NodeId>((s + 5) % 16), static_cast<NodeId>(15 - s)}) {
      if (d == s) continue;
      ++id;
      sink.board.expect(id, s, d, 7, 0);
      for (const Flit& f : make_worm(id, s, d, 7, 0)) net.inject(s, f, 0);
    }
  net.run_until_idle();
  return id;
}
}  // namespace

TEST_CASE("core: crossing worms all arrive once, buffers empty afterwards", "[core][credits]") {
  const MeshShape mesh{4, 4};
  NetworkCore net(config(mesh, {5, 2, 1, 4}, 6));
  RecordingSink sink;
  net.set_sink(&sink);
  const std::uint64_t packets = crossing_load(net, sink);
  CHECK(net.idle());
  CHECK(sink.board.errors().empty());
  CHECK(sink.board.in_flight() == 0);
  CHECK(sink.board.delivered_packets() == packets);
  CHECK(sink.board.delivered_flits() == packets * 7);
  for (NodeId n = 0; n < 16; ++n) {
    const RouterCore& r = net.router(n);
    CHECK(r.idle());
    for (Port p : kAllPorts)
      for (int v = 0; v < kVcs; ++v) CHECK(r.buffered(p, v) == 0);
  }
  CHECK(net.stuck_report().empty());
}

TEST_CASE("core: once the network is idle every router holds full credits", "[core][credits]") {
  // Every downstream buffer is empty and the last credit return was due long ago
  // (cycle + 1 + tp): the hardware credit counters are back at the buffer depth.
  const MeshShape mesh{4, 4};
  const Timing t{5, 2, 1, 4};
  NetworkCore net(config(mesh, t, 6));
  RecordingSink sink;
  net.set_sink(&sink);
  crossing_load(net, sink);
  REQUIRE(net.idle());
  const std::uint64_t later = net.last_cycle() + 2 * t.tp + 2;
  std::size_t fewer_before = 0;
  for (NodeId n = 0; n < 16; ++n) {
    const RouterCore& r = net.router(n);
    for (Port p : kAllPorts) {
      if (p == Port::Local || !mesh.has_neighbor(r.coord(), p)) continue;
      INFO("router " << n << " output " << port_name(p));
      const auto at = [&](int vc, std::uint64_t cycle) {
        return r.credits_at(cycle)[static_cast<std::size_t>(index(p) * kMaxVcs + vc)];
      };
      CHECK(at(kWormVc, later) == 6);
      CHECK(at(1, later) == 4);
      CHECK(at(2, later) == 4);
      // The counter never exceeds the depth, and before the last returns it is lower.
      CHECK(at(kWormVc, 0) <= 6);
      if (at(kWormVc, net.last_cycle() - 1) < 6) ++fewer_before;
    }
  }
  CHECK(fewer_before > 0);
}

TEST_CASE("core: two worms for one output are serialised, not interleaved", "[core][worm]") {
  const MeshShape mesh{3, 3};
  const Timing t{5, 1, 1, 3};
  NetworkCore net(config(mesh, t));
  RecordingSink sink;
  net.set_sink(&sink);
  // (0,1) and (1,2) both send a 10-flit worm to (2,1), 2 hops each: the heads meet at
  // the Local output of router (2,1), which one worm holds until its tail has left.
  const NodeId a = mesh.id({0, 1}), b = mesh.id({1, 2}), dest = mesh.id({2, 1});
  sink.board.expect(1, a, dest, 10, 0);
  sink.board.expect(2, b, dest, 10, 0);
  for (const Flit& f : make_worm(1, a, dest, 10, 0)) net.inject(a, f, 0);
  for (const Flit& f : make_worm(2, b, dest, 10, 0)) net.inject(b, f, 0);
  net.run_until_idle();
  CHECK(sink.board.errors().empty());
  CHECK(sink.board.delivered_packets() == 2);
  // At the destination the flits of one packet are contiguous.
  std::vector<std::uint64_t> order;
  for (const Ejection& e : sink.out) order.push_back(e.flit.packet);
  REQUIRE(order.size() == 20);
  int switches = 0;
  for (std::size_t i = 1; i < order.size(); ++i) switches += order[i] != order[i - 1] ? 1 : 0;
  CHECK(switches == 1);
  // (1,2) and (0,1) are both 2 hops away: one of them waited a whole worm.
  std::uint64_t last = 0;
  for (const Ejection& e : sink.out) last = std::max(last, e.cycle);
  CHECK(last >= 2 * t.tp + 3 * t.trn + 19);
}

TEST_CASE("core: a sync message to a router without a register reaches its NI after trm",
          "[core][sync]") {
  const MeshShape mesh{5, 5};
  for (const Timing& t : kTimings) {
    NetworkCore net(config(mesh, t));
    RecordingSink sink;
    net.set_sink(&sink);
    const NodeId src = mesh.id({0, 1}), dest = mesh.id({3, 4});
    net.inject(src, make_sync(SyncType::Arrive, 9, src, dest, Route::YX, 2), 10);
    net.run_until_idle();
    REQUIRE(sink.out.size() == 1);
    CHECK(sink.out[0].node == dest);
    CHECK(sink.out[0].flit.sync);
    CHECK(sink.out[0].flit.data == 2);
    // Forwarding routers cost trn, the addressed router trm (its CAM misses).
    CHECK(sink.out[0].cycle - 10 == 6u * t.tp + 6u * t.trn + t.trm);
    CHECK(net.counters().sync_hops == 6);
  }
}

namespace {

// A whole barrier on the bare network, doing by hand what the NIs do: every member's
// local arrival enters its router at `start`; the root's completion is ejected to its NI;
// the release enters the root router later. Returns {reduction, distribution} cycles.
struct CoreBarrier {
  std::uint64_t reduction = 0;     // root notified, minus start
  std::uint64_t distribution = 0;  // last local release, minus release injection
  std::uint64_t hops = 0;
};

CoreBarrier run_core_barrier(const MeshShape& mesh, const Timing& t, const BarrierTree& tree,
                             std::uint8_t gid, int epochs = 1) {
  NetworkCore net(config(mesh, t));
  RecordingSink sink;
  net.set_sink(&sink);
  for (const TreeNode& n : tree.nodes()) {
    auto& regs = net.router(n.node).registers();
    const int r = regs.find_or_allocate(gid);
    REQUIRE(r >= 0);
    regs.at(r).program(tree.register_for(n.node, gid));
  }
  CoreBarrier out;
  std::uint64_t start = 5;
  for (int e = 0; e < epochs; ++e) {
    sink.out.clear();
    for (const TreeNode& n : tree.nodes())
      net.inject(n.node, make_sync(SyncType::Arrive, gid, n.node, n.node, Route::XY, kLocalSlot), start);
    net.run_until_idle();
    REQUIRE(sink.out.size() == 1);
    CHECK(sink.out[0].node == tree.root());
    CHECK(sink.out[0].flit.stype == SyncType::Arrive);
    CHECK(sink.out[0].flit.gid == gid);
    out.reduction = sink.out[0].cycle - start;
    sink.out.clear();
    const std::uint64_t rel = net.last_cycle() + 11;
    net.inject(tree.root(), make_sync(SyncType::Release, gid, tree.root(), tree.root(), Route::XY, 0), rel);
    net.run_until_idle();
    std::map<NodeId, int> released;
    std::uint64_t last = 0;
    for (const Ejection& e2 : sink.out) {
      CHECK(e2.flit.stype == SyncType::Release);
      CHECK(e2.flit.dest == e2.node);
      ++released[e2.node];
      last = std::max(last, e2.cycle);
    }
    // Every member released exactly once, no nonmember at all.
    CHECK(released.size() == tree.nodes().size());
    for (const auto& [node, count] : released) {
      CHECK(tree.contains(node));
      CHECK(count == 1);
    }
    out.distribution = last - rel;
    start = net.last_cycle() + 13;
  }
  out.hops = net.counters().sync_hops / static_cast<std::uint64_t>(epochs);
  // The registers are still programmed and idle for the next epoch.
  for (const TreeNode& n : tree.nodes()) {
    const auto& regs = net.router(n.node).registers();
    const int r = regs.lookup(gid);
    REQUIRE(r >= 0);
    CHECK(regs.at(r).arrived() == 0);
  }
  return out;
}

}  // namespace

TEST_CASE("core: contention-free BTM barriers meet the analytic path delay exactly", "[core][btm]") {
  const MeshShape mesh{8, 8};
  const std::vector<std::pair<std::string, std::vector<NodeId>>> groups = {
      {"one member", {mesh.id({3, 3})}},
      {"two members", ref::ids(mesh, {{1, 1}, {5, 3}})},
      {"plus", ref::ids(mesh, {{3, 3}, {6, 3}, {0, 3}, {3, 7}, {3, 1}})},
      {"row of three", ref::ids(mesh, {{0, 5}, {2, 5}, {4, 5}})},
      {"diagonal pair", ref::ids(mesh, {{0, 0}, {7, 7}})},
  };
  // Exact from exact_trm_minimum() on (14: the default 8 children); below it (the same
  // timings with t_rm 3 and 9) a lower bound.
  const std::vector<Timing> exact = {{1000, 5, 5, 30}, {7, 1, 1, 14}, {50, 3, 2, 16}};
  const std::vector<Timing> below = {{7, 1, 1, 3}, {50, 3, 2, 9}};
  for (const bool is_exact : {true, false})
    for (const Timing& t : is_exact ? exact : below)
      for (const auto& [name, members] : groups) {
        INFO(name << " ts " << t.ts << " tp " << t.tp << " trn " << t.trn << " trm " << t.trm);
        REQUIRE(is_exact == (t.trm >= exact_trm_minimum(RouterParams{})));
        const BarrierTree tree = build_btm_tree(mesh, members);
        const std::uint64_t path = tree.analytic_cycles(t) / 2 - t.ts;
        const CoreBarrier b = run_core_barrier(mesh, t, tree, 17, 3);
        if (is_exact) {
          CHECK(b.reduction == path);
          CHECK(b.distribution == path);
        } else {
          CHECK(b.reduction >= path);
          CHECK(b.distribution >= path);
        }
        CHECK(b.hops == tree.analytic_hops());
      }
}

TEST_CASE("core: BTM barriers on larger groups are never faster than the formula", "[core][btm]") {
  for (const MeshShape mesh : {MeshShape{4, 4}, MeshShape{8, 8}, MeshShape{6, 3}}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const auto members = seed == 1 ? ref::all_nodes(mesh)
                                     : ref::random_members(mesh, static_cast<std::size_t>(mesh.nodes()) / 2, seed);
      const BarrierTree tree = build_btm_tree(mesh, members);
      for (const Timing& t : kTimings) {
        INFO(mesh.width << "x" << mesh.height << " seed " << seed << " ts " << t.ts);
        const std::uint64_t path = tree.analytic_cycles(t) / 2 - t.ts;
        const CoreBarrier b = run_core_barrier(mesh, t, tree, 200, 2);
        CHECK(b.reduction >= path);
        CHECK(b.distribution >= path);
        CHECK(b.hops == tree.analytic_hops());
      }
    }
  }
}

TEST_CASE("core: stuck_report names routers that hold flits", "[core][deadlock]") {
  const MeshShape mesh{4, 4};
  NetworkCore net(config(mesh, {1, 10, 10, 10}));
  CHECK(net.stuck_report().empty());
  for (const Flit& f : make_worm(1, mesh.id({0, 0}), mesh.id({3, 2}), 4, 0)) net.inject(mesh.id({0, 0}), f, 0);
  // A few cycles in, flits sit in routers (0,0) and (1,0).
  for (std::uint64_t c = 0; c <= 25; ++c) net.run_cycle(c);
  const std::string rep = net.stuck_report();
  INFO(rep);
  CHECK_THAT(rep, Catch::Contains("router (1,0)"));
  CHECK_THAT(rep, Catch::Contains("packet 1"));
  CHECK_THAT(rep, Catch::Contains("to (3,2)"));
  CHECK_FALSE(net.idle());
  net.run_until_idle();
  CHECK(net.stuck_report().empty());
}

TEST_CASE("core: a worm VC held forever is reported as a deadlock", "[core][deadlock]") {
  // A head flit whose tail never comes (a broken source) keeps the worm VC of every output
  // on its path. A second worm that needs one of those outputs can never move: the
  // scheduler must notice and name the stuck router.
  const MeshShape mesh{4, 1};
  NetworkConfig cfg = config(mesh, {1, 1, 1, 1});
  cfg.deadlock_cycles = 50;
  NetworkCore net(cfg);
  RecordingSink sink;
  net.set_sink(&sink);
  const auto broken = make_worm(1, 0, 3, 2, 0);
  net.inject(0, broken[0], 0);  // the head only
  for (const Flit& f : make_worm(2, 1, 3, 1, 20)) net.inject(1, f, 20);
  try {
    net.run_until_idle(100000);
    FAIL("no deadlock reported");
  } catch (const DeadlockError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK_THAT(msg, Catch::StartsWith("deadlock"));
    CHECK_THAT(msg, Catch::Contains("router (1,0)"));
    CHECK_THAT(msg, Catch::Contains("packet 2"));
    CHECK_THAT(msg, Catch::Contains("worm VC held by input -X"));
    CHECK(net.last_cycle() < 20 + 200);
  }
  // The head itself got through.
  REQUIRE(sink.out.size() == 1);
  CHECK(sink.out[0].flit.packet == 1);
}

TEST_CASE("core: sync messages pass a blocked worm network", "[core][deadlock][sync]") {
  // The same stuck worm, but the deadlock limit is large: a sync message on the same
  // links uses its own virtual network and is delivered.
  const MeshShape mesh{4, 1};
  NetworkConfig cfg = config(mesh, {1, 1, 1, 1});
  cfg.deadlock_cycles = 100000;
  NetworkCore net(cfg);
  RecordingSink sink;
  net.set_sink(&sink);
  net.inject(0, make_worm(1, 0, 3, 2, 0)[0], 0);
  for (const Flit& f : make_worm(2, 1, 3, 1, 20)) net.inject(1, f, 20);
  net.inject(1, make_sync(SyncType::Arrive, 3, 1, 3, Route::XY, 0), 30);
  net.run_until_idle(400);
  bool sync_seen = false;
  for (const Ejection& e : sink.out)
    if (e.flit.sync) {
      sync_seen = true;
      CHECK(e.node == 3);
      CHECK(e.cycle == 30 + 2 * 1 + 2 * 1 + 1);
    }
  CHECK(sync_seen);
}

TEST_CASE("core: a sync message is looked up in the CAM in its arrival cycle, not when it was sent",
          "[core][sync][cam]") {
  // Node 1 joins the message's CS path while the message is on the link towards it: the
  // lookup happens when it arrives (docs/microarchitecture.md), so node 1 processes it
  // (trm) instead of forwarding it (trn).
  const MeshShape mesh{3, 1};
  const Timing t{1000, 5, 1, 10};
  for (const bool join_in_flight : {false, true}) {
    NetworkCore net(config(mesh, t));
    RecordingSink sink;
    net.set_sink(&sink);
    net.inject(0, make_sync(SyncType::Arrive, 7, 0, 2, Route::XY, kNoSlot), 0);
    net.run_until_idle(3);  // sent in cycle 0, in node 1's buffer from cycle 6
    if (join_in_flight) {
      BarrierRegisterFile& regs = net.router(1).registers();
      const int r = regs.find_or_allocate(7);
      REQUIRE(r >= 0);
      regs.at(r).open_transit(7);
    }
    net.run_until_idle();
    REQUIRE(sink.out.size() == 1);
    CHECK(sink.out[0].node == 2);
    CHECK(sink.out[0].cycle == 2u * t.tp + t.trn + (join_in_flight ? t.trm : t.trn) + t.trm);
  }
}

TEST_CASE("core: five arrivals in one cycle are taken one per cycle and still meet trm when trm >= 7",
          "[core][sync][btm]") {
  // A root at the centre of a 3x3 mesh with four children (its neighbours): their four
  // arrivals and the local one reach its barrier unit in the same cycle a. The unit takes
  // one per cycle (a .. a+4), so the reduction completes at a+4; the emitter takes the
  // batch in a+5 and stages its one message (to the root's own NI) in a+5, so it may
  // leave in a+6 at the earliest: on time, at a + trm - 1, for trm >= k + 1 + 1 = 7; one
  // cycle late for trm = 6, two for trm = 5 (docs/microarchitecture.md, "Exactness").
  const MeshShape mesh{3, 3};
  for (const std::uint32_t trm : {5u, 6u, 7u, 30u}) {
    const Timing t{1000, 2, 3, trm};
    NetworkCore net(config(mesh, t));
    RecordingSink sink;
    net.set_sink(&sink);
    const NodeId root = mesh.id(Coord{1, 1});
    BarrierRegisterSetup s;
    s.gid = 9;
    const NodeId kids[] = {mesh.id(Coord{2, 1}), mesh.id(Coord{0, 1}), mesh.id(Coord{1, 2}),
                           mesh.id(Coord{1, 0})};
    for (int k = 0; k < 4; ++k) s.children.push_back({kids[k], k < 2 ? Route::XY : Route::YX});
    REQUIRE(net.router(root).program_register(s));
    for (int k = 0; k < 4; ++k)
      net.inject(kids[k], make_sync(SyncType::Arrive, 9, kids[k], root, k < 2 ? Route::XY : Route::YX,
                                    static_cast<std::uint8_t>(k)), 0);
    // A child's message leaves its router in trn - 1 and arrives at the root in trn + tp.
    const std::uint64_t a = t.trn + t.tp;
    net.inject(root, make_sync(SyncType::Arrive, 9, root, root, Route::XY, kLocalSlot), a);
    net.run_until_idle();
    REQUIRE(sink.out.size() == 1);
    CHECK(sink.out[0].node == root);
    const std::uint64_t on_time = a + trm - 1 + 1;  // sent in a + trm - 1, delivered next cycle
    CHECK(sink.out[0].cycle == (trm >= 7 ? on_time : a + 6 + 1));
  }
}

TEST_CASE("network: a software write while a reduction's result streams lets the worm finish, the next barrier completes",
          "[network][reduction]") {
  // 3x1, every node a member; the root reprograms its register 50 cycles into the
  // release, whose 34-flit worms are on their way to the children.
  NetworkConfig cfg;
  cfg.mesh = MeshShape{3, 1};
  cfg.timing = Timing{10, 1, 1, 40};
  cfg.deadlock_cycles = 2000;
  NetworkCore net(cfg);
  RecordingSink sink;
  net.set_sink(&sink);
  const std::uint8_t gid = 7;
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, {0, 1, 2});
  const NodeId root = tree.root();
  for (NodeId n : {0u, 1u, 2u}) net.program_register(n, tree.register_for(n, gid), 0);
  const ReductionDescriptor d{ReduceOp::Sum, ElementType::Int32, true, 16};
  for (NodeId n : {0u, 1u, 2u})
    for (const Flit& f : make_reduction_message(make_sync(SyncType::Arrive, gid, n, n, Route::XY, kLocalSlot), d,
                                                std::vector<std::uint32_t>(16, n + 1)))
      net.inject(n, f, 5);
  net.run_until_idle();
  const std::uint64_t release = net.last_cycle() + 3;
  net.inject(root, make_sync(SyncType::Release, gid, root, root, Route::XY, 0), release);
  std::uint64_t c = release;
  for (; c < release + 50; ++c) net.run_cycle(c);
  net.program_register(root, tree.register_for(root, gid), c);
  REQUIRE_NOTHROW(net.run_until_idle());
  // A barrier epoch on the rewritten register: every member released once.
  sink.out.clear();
  const std::uint64_t start = net.last_cycle() + 5;
  for (NodeId n : {0u, 1u, 2u}) net.inject(n, make_sync(SyncType::Arrive, gid, n, n, Route::XY, kLocalSlot), start);
  REQUIRE_NOTHROW(net.run_until_idle());
  net.inject(root, make_sync(SyncType::Release, gid, root, root, Route::XY, 0), net.last_cycle() + 3);
  REQUIRE_NOTHROW(net.run_until_idle());
  std::multiset<NodeId> released;
  for (const Ejection& e : sink.out)
    if (e.flit.sync && e.flit.stype == SyncType::Release) released.insert(e.node);
  CHECK(released == std::multiset<NodeId>{0, 1, 2});
}

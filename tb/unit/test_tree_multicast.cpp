// Tree worms in the router core, without SystemC (docs/tree-multicast.md): a worm sent to
// the root of a group's BTM tree reaches every member once, whole, at the formula's cycle
// when nothing competes; worms of several groups at once drop copies instead of waiting,
// every copy that arrives is whole, and the mesh drains (no deadlock) beside unicast load.
#include <catch2/catch.hpp>

#include <map>
#include <tuple>
#include <set>

#include "model/core/network_core.hpp"
#include "model/core/packet.hpp"
#include "model/core/random.hpp"
#include "support/recording_sink.hpp"
#include "support/sim_helpers.hpp"
#include "sw/collective/barrier_tree.hpp"
#include "sw/collective/member_spec.hpp"

using namespace meshsync;
using meshsync::test::RecordingSink;

namespace {

NetworkConfig config(MeshShape mesh, Timing t, std::uint32_t ni_ports = 1) {
  NetworkConfig c = meshsync::test::make_config(mesh, t);
  c.router.ni_ports = ni_ports;
  return c;
}

// Programs every member's barrier register for `gid` in cycle 0.
void program(NetworkCore& net, const BarrierTree& tree, std::uint8_t gid) {
  for (const TreeNode& t : tree.nodes()) net.program_register(t.node, tree.register_for(t.node, gid), 0);
}

std::vector<NodeId> member_nodes(const BarrierTree& tree) {
  std::vector<NodeId> v;
  for (const TreeNode& t : tree.nodes()) v.push_back(t.node);
  return v;
}

std::uint64_t send_tree(NetworkCore& net, RecordingSink& sink, NodeId src, const BarrierTree& tree, std::uint8_t gid,
                        std::uint16_t length, std::uint64_t cycle) {
  const std::uint64_t id = net.new_packet_id();
  std::vector<std::uint32_t> words;
  for (std::uint16_t i = 1; i < length; ++i) words.push_back(static_cast<std::uint32_t>(id * 7919 + i));
  sink.board.expect_tree(id, src, member_nodes(tree), length, cycle, words);
  for (const Flit& f : make_tree_worm(id, src, tree.root(), gid, length, cycle, words)) net.inject(src, f, cycle);
  return id;
}

const Timing kTimings[] = {{1000, 5, 5, 30}, {7, 1, 1, 3}, {50, 3, 2, 9}};

// Every copy that reached a node is whole: `length` flits of one packet, the last a tail.
void check_whole_copies(const RecordingSink& sink) {
  std::map<std::pair<std::uint64_t, NodeId>, std::vector<Flit>> copies;
  for (const auto& e : sink.out) copies[{e.flit.packet, e.node}].push_back(e.flit);
  for (const auto& [key, flits] : copies) {
    INFO("packet " << key.first << " at node " << key.second);
    CHECK(flits.size() == flits.front().length);
    CHECK(flits.back().tail);
  }
}

// The longest tree worm that cannot meet an earlier copy of itself at zero load: a later
// copy reaches a link an earlier one crossed no sooner than two hops and two member
// routers later (docs/tree-multicast.md).
std::uint16_t self_safe_length(const Timing& t) {
  return static_cast<std::uint16_t>(std::min<std::uint32_t>(66, 2 * (t.tp + t.trn) + 2 * t.trm));
}

// Router (3,3) of an 8x8 mesh (trn 2, trm 3), driven by hand, and (6,3), east of it.
struct OneRouter {
  MeshShape mesh{8, 8};
  NetworkConfig cfg = config(mesh, {7, 1, 2, 3});
  std::vector<Coord> coords = [this] {
    std::vector<Coord> v;
    for (NodeId n = 0; n < static_cast<NodeId>(mesh.nodes()); ++n) v.push_back(mesh.coord(n));
    return v;
  }();
  NodeId east = mesh.id({6, 3});
  RouterCore r{mesh.id({3, 3}), {3, 3}, cfg, coords.data()};
};

// One router driven by hand: what it sends, and the copies it drops.
struct Recorder : RouterLinks {
  std::vector<std::tuple<int, Flit, std::uint64_t>> sent;  // output, flit, cycle
  std::vector<std::tuple<int, std::uint64_t, std::uint64_t>> dropped;  // output, packet, cycle
  void flit_out(NodeId, int port, const Flit& f, std::uint64_t cycle) override { sent.emplace_back(port, f, cycle); }
  void credit_out(NodeId, int, int, std::uint64_t) override {}
  void tree_copy_dropped(NodeId, int output, std::uint64_t packet, std::uint64_t cycle) override {
    dropped.emplace_back(output, packet, cycle);
  }
};

}  // namespace

TEST_CASE("tree worms: every member gets one whole copy at the formula's cycle", "[core][tree]") {
  const MeshShape mesh{10, 10};
  for (const Timing& t : kTimings)
    for (std::uint32_t ports : {1u, 4u})
      for (const char* spec : {"all", "random:17", "random:40"}) {
        const NetworkConfig cfg = config(mesh, t, ports);
        const BarrierTree tree = build_btm_tree(mesh, parse_members(spec, mesh, 3));
        const std::vector<NodeId> members = member_nodes(tree);
        // From the tree's root, and from a member at the edge of the tree.
        for (const NodeId src : {tree.root(), members.back()})
          for (const std::uint16_t length : {std::uint16_t{6}, self_safe_length(t)}) {
          NetworkCore net(cfg);
          RecordingSink sink;
          net.set_sink(&sink);
          program(net, tree, 9);
          const std::uint64_t start = 10;
          send_tree(net, sink, src, tree, 9, length, start);
          net.run_until_idle();
          INFO("ts " << t.ts << " ports " << ports << " members " << spec << " src " << src << " length " << length);
          CHECK(sink.board.errors().empty());
          CHECK(net.counters().tree_copies_dropped == 0);
          check_whole_copies(sink);
          std::map<NodeId, std::vector<std::uint64_t>> arrivals;
          for (const auto& e : sink.out) arrivals[e.node].push_back(e.cycle);
          CHECK(arrivals.size() == members.size());
          const int to_root = hops(mesh.coord(src), mesh.coord(tree.root()));
          for (const TreeNode& m : tree.nodes()) {
            REQUIRE(arrivals[m.node].size() == length);
            // D hops from the source through the root down the tree: each of the h + 1
            // member routers that the copy is addressed to takes trm, every other router trn.
            const std::uint64_t D = static_cast<std::uint64_t>(to_root + m.path_hops);
            const std::uint64_t h = static_cast<std::uint64_t>(m.depth);
            const std::uint64_t head = start + D * t.tp + (D - h) * t.trn + (h + 1) * t.trm;
            CHECK(arrivals[m.node].front() == head);
            CHECK(arrivals[m.node].back() == head + length - 1);
          }
        }
      }
}

TEST_CASE("tree worms: a router without the group's register hands the worm to its NI only", "[core][tree]") {
  const MeshShape mesh{6, 6};
  const NetworkConfig cfg = config(mesh, {7, 1, 1, 3});
  const BarrierTree tree = build_btm_tree(mesh, parse_members("all", mesh, 1));
  NetworkCore net(cfg);
  RecordingSink sink;
  net.set_sink(&sink);
  // Only the root has a register: its children get copies, which end at their NIs.
  net.program_register(tree.root(), tree.register_for(tree.root(), 4), 0);
  send_tree(net, sink, tree.root(), tree, 4, 3, 5);
  net.run_until_idle();
  std::set<NodeId> got;
  for (const auto& e : sink.out) got.insert(e.node);
  std::set<NodeId> expect{tree.root()};
  for (const ChildLink& c : tree.at(tree.root()).children) expect.insert(c.node);
  CHECK(got == expect);
  CHECK(sink.board.errors().empty());
}

TEST_CASE("tree worms: concurrent groups drop copies, never wait, and the mesh drains", "[core][tree][load]") {
  // Several groups multicast at once, with unicast worms beside them: a copy whose output
  // another tree worm holds is dropped, every copy that arrives is whole, and nothing
  // deadlocks (run_until_idle would throw DeadlockError).
  const MeshShape mesh{8, 8};
  for (std::uint32_t ports : {1u, 4u}) {
    NetworkConfig cfg = config(mesh, {20, 2, 1, 4}, ports);
    cfg.router.barrier_registers = 8;
    NetworkCore net(cfg);
    RecordingSink sink;
    net.set_sink(&sink);
    Random rng(ports);
    std::vector<BarrierTree> trees;
    for (std::uint8_t g = 0; g < 6; ++g) {
      trees.push_back(build_btm_tree(mesh, parse_members("random:" + std::to_string(10 + 8 * g), mesh, g)));
      program(net, trees.back(), g);
    }
    std::uint64_t sent = 0;
    for (std::uint64_t cycle = 1; cycle < 3000; cycle += 1 + rng.below(6)) {
      const auto g = static_cast<std::uint8_t>(rng.below(trees.size()));
      const std::vector<NodeId> members = member_nodes(trees[g]);
      const NodeId src = members[rng.below(members.size())];
      send_tree(net, sink, src, trees[g], g, static_cast<std::uint16_t>(2 + rng.below(20)), cycle);
      ++sent;
      // A unicast worm beside it.
      const NodeId a = static_cast<NodeId>(rng.below(mesh.nodes())), b = static_cast<NodeId>(rng.below(mesh.nodes()));
      if (a != b) {
        const std::uint64_t id = net.new_packet_id();
        sink.board.expect(id, a, b, 5, cycle);
        for (const Flit& f : make_worm(id, a, b, 5, cycle)) net.inject(a, f, cycle);
      }
    }
    net.run_until_idle();
    INFO("ports " << ports << ": " << sent << " tree worms, " << net.counters().tree_copies_dropped << " copies dropped");
    CHECK(sink.board.errors().empty());
    CHECK(sink.board.in_flight() == 0);  // every unicast worm arrived
    check_whole_copies(sink);
    CHECK(net.counters().tree_copies_dropped > 0);  // the load does make them compete
    for (NodeId n = 0; n < static_cast<NodeId>(mesh.nodes()); ++n) CHECK(net.router(n).idle());
  }
}

TEST_CASE("tree worms: one head claims a cycle, an output another worm holds loses its copy", "[core][tree]") {
  OneRouter one;
  RouterCore& r = one.r;
  const NodeId east = one.east;
  Recorder out;
  // Two three-flit tree worms in transit to (6,3), on inputs +X and +Y, arriving together:
  // both want output +X.
  const auto a = make_tree_worm(1, 0, east, 7, 3, 0), b = make_tree_worm(2, 0, east, 7, 3, 0);
  for (std::uint64_t k = 0; k < 3; ++k) {
    r.receive(Port::PlusX, a[k], 10 + k);
    r.receive(Port::PlusY, b[k], 10 + k);
  }
  for (std::uint64_t c = 10; c < 40; ++c) r.step(c, out);
  // Ready in cycle 10 + trn - 1 = 11: input +X claims then, +Y a cycle later, finds the
  // output held and loses its copy; its flits leave through no output.
  REQUIRE(out.dropped.size() == 1);
  CHECK(out.dropped[0] == std::make_tuple(index(Port::PlusX), std::uint64_t{2}, std::uint64_t{12}));
  REQUIRE(out.sent.size() == 3);
  for (const auto& [o, f, c] : out.sent) {
    CHECK(o == index(Port::PlusX));
    CHECK(f.packet == 1);
  }
  CHECK(std::get<2>(out.sent[0]) == 11);
  CHECK(r.idle());
}

TEST_CASE("tree worms: a copy needs an empty buffer behind its output", "[core][tree]") {
  OneRouter one;
  RouterCore& r = one.r;
  const NodeId east = one.east;
  Recorder out;
  const auto send = [&](std::uint64_t packet, std::uint64_t at) {
    const auto w = make_tree_worm(packet, 0, east, 7, 3, 0);
    for (std::uint64_t k = 0; k < 3; ++k) r.receive(Port::MinusX, w[k], at + k);
  };
  send(1, 10);
  for (std::uint64_t c = 10; c < 30; ++c) r.step(c, out);
  REQUIRE(out.sent.size() == 3);
  // Its three flits are still in the next router's buffer (no credit came back): the
  // next worm finds the VC free but no room for a whole worm, and is dropped.
  send(2, 30);
  for (std::uint64_t c = 30; c < 50; ++c) r.step(c, out);
  CHECK(out.sent.size() == 3);
  REQUIRE(out.dropped.size() == 1);
  CHECK(std::get<1>(out.dropped[0]) == 2);
  // With the credits back, the buffer is empty and the next worm goes.
  for (int k = 0; k < 3; ++k) r.return_credit(Port::PlusX, kTreeVc, 50);
  send(3, 50);
  for (std::uint64_t c = 50; c < 70; ++c) r.step(c, out);
  CHECK(out.sent.size() == 6);
  CHECK(out.dropped.size() == 1);
}

// Wafer-scale meshes: the software runs without a thread per member, router
// and interface state exists only where something reached it, and neither changes a
// result. The big runs themselves (1024x1024, every node a member) are in scripts/bench;
// these stay within seconds, sanitizers included.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <set>

#include "model/core/flit_fifo.hpp"
#include "model/core/injection_channel.hpp"
#include "support/sim_helpers.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

// Routers a dimension-order message from `a` to `b` enters, both ends included.
void add_route(const MeshShape& mesh, NodeId a, NodeId b, Route r, std::set<NodeId>& out) {
  Coord here = mesh.coord(a);
  const Coord dest = mesh.coord(b);
  out.insert(a);
  for (Port p = next_port(here, dest, r); p != Port::Local; p = next_port(here, dest, r)) {
    here = step(here, p);
    out.insert(mesh.id(here));
  }
}

// Every router a barrier of `tree` sends a sync message through: each child's arrival
// (and a CS child's setup) goes to its parent on the child's route, each release from
// the parent on the route the parent's register holds for that child.
std::set<NodeId> barrier_routers(const BarrierTree& tree) {
  std::set<NodeId> out;
  for (const TreeNode& t : tree.nodes()) {
    out.insert(t.node);
    if (t.parent) add_route(tree.mesh(), t.node, *t.parent, t.r, out);
    for (const ChildLink& child : t.children) add_route(tree.mesh(), t.node, child.node, child.route, out);
  }
  return out;
}

// The blocking software: one thread per member running join, barrier and leave, as
// measure_barrier did before its members became callbacks. Returns each member's release
// cycle relative to the common arrival, in member order.
std::vector<std::uint64_t> releases_with_threads(Machine& m, const Communicator& c,
                                                 std::uint64_t& arrival) {
  const std::size_t n = c.members().size();
  std::vector<std::uint64_t> out(n);
  std::size_t joined = 0, done = 0;
  sc_core::sc_event all_joined, start, all_done;
  for (std::size_t i = 0; i < n; ++i) {
    Node& node = m.node(c.members()[i].node);
    m.post(node.id(), [&, i, &node = node] {
      join(node, c);
      if (++joined == n) all_joined.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait(start);
      out[i] = barrier(node, c);
      leave(node, c);
      if (++done == n) all_done.notify(sc_core::SC_ZERO_TIME);
    });
  }
  if (joined < n) sc_core::wait(all_joined);
  m.mesh().wait_idle();
  arrival = m.now() + 1;
  start.notify(MeshSystem::cycle_time());
  sc_core::wait(all_done);
  m.mesh().wait_idle();
  for (auto& r : out) r -= arrival;
  return out;
}

}  // namespace

TEST_CASE("scale: an elaborated 1024x1024 machine holds no router or interface state",
          "[system][scale]") {
  Machine m(make_config({1024, 1024}));
  run_driver(m, [&] { wait_cycles(10); });
  CHECK(m.now() == 10);
  CHECK(m.mesh().core().routers_allocated() == 0);
  CHECK(m.mesh().interfaces_allocated() == 0);
}

TEST_CASE("scale: a sparse barrier on 1024x1024 takes analytic_cycles and allocates only the "
          "routers its messages cross", "[system][scale][barrier]") {
  const MeshShape mesh{1024, 1024};
  // Far apart (every two-member group is contention-free), then four corners and the
  // centre, whose tree has four children at the root. One machine per scheme (a million
  // routers to elaborate), the groups one after the other.
  const std::vector<std::vector<Coord>> groups = {
      {{0, 0}, {1023, 1023}},
      {{0, 0}, {1023, 0}, {0, 1023}, {1023, 1023}, {511, 511}}};
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS}) {
    Machine m(make_config(mesh));
    std::set<NodeId> crossed, members_so_far;
    std::vector<std::uint64_t> analytic, latency;
    std::vector<std::size_t> allocated, interfaces, expected_allocated, expected_interfaces;
    run_driver(m, [&] {
      for (const auto& g : groups) {
        std::vector<NodeId> members;
        for (Coord c : g) members.push_back(mesh.id(c));
        const Communicator c = m.groups().create(mesh, members, scheme);
        analytic.push_back(c.tree->analytic_cycles(m.mesh().config().timing));
        const std::set<NodeId> more = barrier_routers(*c.tree);
        crossed.insert(more.begin(), more.end());
        members_so_far.insert(members.begin(), members.end());
        latency.push_back(measure_barrier(m, c).latency_cycles);
        m.groups().free(c);
        allocated.push_back(m.mesh().core().routers_allocated());
        expected_allocated.push_back(crossed.size());
        interfaces.push_back(m.mesh().interfaces_allocated());
        expected_interfaces.push_back(members_so_far.size());
      }
    });
    INFO(scheme_name(scheme));
    REQUIRE(latency.size() == groups.size());
    CHECK(latency[0] == analytic[0]);
    // The CS paths of the five meet near the root and contend there.
    if (scheme == BarrierScheme::BTM) CHECK(latency[1] == analytic[1]);
    else CHECK(latency[1] >= analytic[1]);
    CHECK(allocated == expected_allocated);
    CHECK(interfaces == expected_interfaces);
  }
}

TEST_CASE("scale: members as callbacks release in the same cycles as members as threads",
          "[system][scale][barrier]") {
  // Contended random groups, the CS tree's path registers and the software fallback (one
  // register per router, a second live group) all go through both forms of the software.
  const MeshShape mesh{8, 8};
  for (std::uint32_t registers : {4u, 1u})
    for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS})
      for (std::uint64_t seed : {1u, 2u, 3u}) {
        std::vector<NodeId> members;
        for (NodeId n = 0; n < 64; ++n)
          if ((n * 2654435761u + seed * 40503u) % 3 != 0) members.push_back(n);
        INFO(scheme_name(scheme) << " registers=" << registers << " seed=" << seed);
        std::vector<std::uint64_t> threads;
        std::uint64_t arrival = 0;
        BarrierMeasurement callbacks;
        for (bool with_threads : {true, false}) {
          Machine m(make_config(mesh, {}, registers));
          // A live group that holds the one register of a few routers; it outlives the
          // driver, whose posted jobs use it after the driver has returned.
          Communicator other;
          Communicator c;
          run_driver(m, [&] {
            other = m.groups().create(mesh, {0, 9, 18, 27}, BarrierScheme::BTM);
            for (NodeId n : {0u, 9u, 18u, 27u}) m.post(n, [&, n] { join(m.node(n), other); });
            m.mesh().wait_idle();
            wait_cycles(3);
            c = m.groups().create(mesh, members, scheme);
            if (with_threads) threads = releases_with_threads(m, c, arrival);
            else callbacks = measure_barrier(m, c);
            for (NodeId n : {0u, 9u, 18u, 27u}) m.post(n, [&, n] { leave(m.node(n), other); });
          });
        }
        CHECK(callbacks.arrival_cycle == arrival);
        CHECK(callbacks.latency_cycles == *std::max_element(threads.begin(), threads.end()));
        CHECK(callbacks.first_release == *std::min_element(threads.begin(), threads.end()));
      }
}

TEST_CASE("scale: a buffer that takes storage as flits come keeps their order",
          "[unit][scale]") {
  FlitFifo<int> q;
  q.set_capacity(7);
  CHECK(q.capacity() == 7);
  CHECK(q.empty());
  std::deque<int> ref;
  int next = 0;
  // Fill and drain in uneven steps so the ring wraps while it grows.
  for (int round = 0; round < 50; ++round) {
    for (int k = 0; k < round % 5 + 1 && !q.full(); ++k) {
      q.push(next);
      ref.push_back(next++);
    }
    CHECK(q.full() == (ref.size() == 7));
    for (std::size_t i = 0; i < ref.size(); ++i) CHECK(q.at(i) == ref[i]);
    for (int k = 0; k < round % 3 && !q.empty(); ++k) {
      CHECK(q.front() == ref.front());
      q.pop();
      ref.pop_front();
    }
    CHECK(q.size() == ref.size());
  }
}

TEST_CASE("scale: the injection channel serves flits as the deque it replaced did",
          "[unit][scale]") {
  // The reference: a deque, each flit inserted after every queued flit due no later.
  struct Entry {
    std::uint64_t cycle, id;
  };
  std::deque<Entry> ref;
  InjectionChannel ch;
  std::uint64_t id = 0;
  const auto pop_both = [&] {
    REQUIRE_FALSE(ch.empty());
    CHECK(ch.front_cycle() == ref.front().cycle);
    CHECK(ch.front().packet == ref.front().id);
    ch.pop();
    ref.pop_front();
  };
  // Long queues (the compaction of served entries) and uneven due cycles.
  for (int round = 0; round < 400; ++round) {
    for (int k = 0; k < 3; ++k) {
      Flit f;
      f.packet = ++id;
      f.sync = id % 4 == 0;
      const std::uint64_t cycle = static_cast<std::uint64_t>(round) + (id * 7) % 5;
      ch.push(f, cycle);
      auto pos = ref.end();
      while (pos != ref.begin() && std::prev(pos)->cycle > cycle) --pos;
      ref.insert(pos, Entry{cycle, id});
    }
    for (int k = 0; k < 2; ++k) pop_both();
    CHECK(ch.size() == ref.size());
  }
  CHECK(ch.holds_sync());
  while (!ref.empty()) pop_both();
  CHECK(ch.empty());
  CHECK_FALSE(ch.holds_sync());
}

namespace {
// An initiator of our own on a node's NI, recording when responses come back.
struct Initiator : tlm::tlm_bw_transport_if<> {
  Machine* m = nullptr;
  std::vector<std::uint64_t> responses;  // cycles of BEGIN_RESP
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    CHECK(phase == tlm::BEGIN_RESP);
    CHECK(trans.get_response_status() == tlm::TLM_OK_RESPONSE);
    responses.push_back(m->now());
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};
}  // namespace

TEST_CASE("scale: the NI's non-blocking transport answers when the blocking one would return",
          "[system][scale]") {
  Machine m(make_config({4, 4}, {50, 3, 2, 9}));
  Initiator init;
  init.m = &m;
  tlm::tlm_fw_transport_if<>& ni = m.mesh().ni(0).bind(init);
  const auto request = [&](tlm::tlm_generic_payload& t, NiCommand cmd, void* data,
                           tlm::tlm_phase phase = tlm::BEGIN_REQ) {
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(static_cast<std::uint64_t>(cmd));
    t.set_data_ptr(static_cast<unsigned char*>(data));
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return ni.nb_transport_fw(t, phase, delay);
  };
  std::uint64_t sent_at = 0;
  NiReceive got;
  run_driver(m, [&] {
    wait_cycles(4);
    sent_at = m.now();
    tlm::tlm_generic_payload send;
    NiSend cmd{15, {7, 8}, {}};
    CHECK(request(send, NiCommand::Send, &cmd) == tlm::TLM_ACCEPTED);
    // The worm's delivery, through the blocking path at the other end.
    got = m.node(15).receive();
    // Other phases and unknown commands complete at once, with an error.
    tlm::tlm_generic_payload bad;
    CHECK(request(bad, NiCommand::Send, &cmd, tlm::END_RESP) == tlm::TLM_COMPLETED);
    CHECK(bad.get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(request(bad, static_cast<NiCommand>(0x99), &cmd) == tlm::TLM_COMPLETED);
    CHECK(bad.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  // A send returns after the start-up, as b_transport does.
  CHECK(init.responses == std::vector<std::uint64_t>{sent_at + 50});
  CHECK(got.src == 0);
  CHECK(got.words == std::vector<std::uint32_t>{7, 8});
}

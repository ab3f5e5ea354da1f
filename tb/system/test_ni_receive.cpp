// A receive takes only the messages its NiMatch accepts (MPI's source matching), so that
// several pieces of software can share a node: a multicast's copies, a broadcast's
// packets from its parent. A message no waiting receive takes stays in the NI, in order.
#include <catch2/catch.hpp>

#include "support/sim_helpers.hpp"

using namespace meshsync;
using namespace meshsync::test;

TEST_CASE("NI receive: a receive from one sender leaves the other's earlier message for later", "[system][ni]") {
  Machine m(make_config(MeshShape{4, 4}, Timing{7, 1, 1, 3}));
  // Node 1 is next to node 0, node 15 far: 1's message arrives first.
  NiReceive from_far, from_near;
  m.spawn("near", [&] { m.node(1).send(0, {11}); });
  m.spawn("far", [&] { m.node(15).send(0, {22}); });
  m.spawn("receiver", [&] {
    from_far = m.node(0).receive(NiMatch{NiMatch::Kind::Message, NodeId{15}});
    from_near = m.node(0).receive(NiMatch{NiMatch::Kind::Any, NodeId{1}});
  });
  m.run();
  CHECK(from_far.src == 15);
  CHECK(from_far.words == std::vector<std::uint32_t>{22});
  CHECK(from_near.src == 1);
  CHECK(from_near.words == std::vector<std::uint32_t>{11});
  // The near message was delivered before the far one and waited in the NI.
  CHECK(from_near.cycle < from_far.cycle);
}

TEST_CASE("NI receive: waiting receives take matching messages in the order they were issued", "[system][ni]") {
  Machine m(make_config(MeshShape{4, 4}, Timing{7, 1, 1, 3}));
  std::vector<std::pair<int, std::uint32_t>> got;  // (which receive, word)
  m.spawn("senders", [&] {
    m.node(5).send(0, {1});
    m.node(5).send(0, {2});
    m.node(6).send(0, {3});
  });
  m.spawn("receiver", [&] {
    // Callbacks: three receives waiting at once, one for node 6 only.
    Node& n = m.node(0);
    n.receive([&](NiReceive& r) { got.emplace_back(0, r.words.at(0)); }, NiMatch{NiMatch::Kind::Any, NodeId{6}});
    n.receive([&](NiReceive& r) { got.emplace_back(1, r.words.at(0)); });
    n.receive([&](NiReceive& r) { got.emplace_back(2, r.words.at(0)); });
  });
  m.run();
  REQUIRE(got.size() == 3);
  // 5's messages go to the two receives that take anything, in their order; 6's to the
  // receive waiting for it.
  CHECK(got[0] == std::make_pair(1, 1u));
  CHECK(got[1] == std::make_pair(2, 2u));
  CHECK(got[2] == std::make_pair(0, 3u));
}

TEST_CASE("NI receive: a multicast copy and a message each go to the receive of their kind", "[system][ni]") {
  Machine m(make_config(MeshShape{4, 4}, Timing{7, 1, 1, 3}));
  NiReceive copy, message;
  bool sent = false;
  m.spawn("sender", [&] {
    m.node(3).send(0, {7});  // the message first ...
    NiMulticast step;        // ... then a one-destination XY worm
    step.worms.push_back(NiWorm{{NodeId{0}}, WormBase::XY, Port::Local, 0});
    step.data_flits = 1;
    step.words = {9};
    m.node(3).multicast(std::move(step), [&](NiMulticast&) { sent = true; });
  });
  m.spawn("receiver", [&] {
    // Issued first, yet it must not take the message that is delivered first.
    m.node(0).receive([&](NiReceive& r) { copy = r; }, NiMatch{NiMatch::Kind::Multicast, std::nullopt});
    message = m.node(0).receive(NiMatch{NiMatch::Kind::Message, std::nullopt});
  });
  m.run();
  CHECK(sent);
  CHECK(copy.multicast);
  CHECK(copy.words == std::vector<std::uint32_t>{9});
  CHECK_FALSE(message.multicast);
  CHECK(message.words == std::vector<std::uint32_t>{7});
  CHECK(message.cycle < copy.cycle);
}

TEST_CASE("NI receive: a command whose completion ends another pending command completes each once",
          "[system][ni]") {
  // Node 0 waits for node 1's message (R0); when it arrives, its software withdraws its
  // tree-multicast receive buffers, which ends its waiting tree receive (R) empty. R is
  // posted in the very cycle R0's message is due, before the NI hands it over: posting R
  // completes R0, whose callback completes R, inside R's own call. R must complete once
  // (it used to be answered twice: backward, then as finished at once).
  Machine m(make_config(MeshShape{4, 4}, Timing{7, 1, 1, 3}));
  const Timing t{7, 1, 1, 3};
  // One hop, a head and one body flit: the tail is in node 0's NI then.
  const std::uint64_t due = t.ts + t.trn + (t.tp + t.trn) + 1;
  int r0 = 0, r = 0;
  bool r_empty = false;
  m.spawn("software", [&] {
    Node& n = m.node(0);
    n.listen(5, true, [] {});
    n.receive(
        [&](NiReceive&) {
          ++r0;
          n.listen(5, false, [] {});
        },
        NiMatch{NiMatch::Kind::Message, NodeId{1}});
    m.mesh().at(m.now() + due, [&] {
      n.receive(
          [&](NiReceive& got) {
            ++r;
            r_empty = !got.tree.has_value();
          },
          NiMatch{NiMatch::Kind::Tree, std::nullopt, 5});
    });
    m.node(1).send(0, {42}, [] {});
  });
  m.run();
  CHECK(r0 == 1);
  CHECK(r == 1);
  CHECK(r_empty);
}

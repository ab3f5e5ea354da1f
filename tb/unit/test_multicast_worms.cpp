// Multidestination worms in the router core, without SystemC: every destination of a worm
// absorbs one copy and forwards the rest, at the unicast formula's cycle when nothing
// competes, on the snake VC for Hu/Hl worms and the worm VC for XY ones; under load
// (one-port and all-port NIs) every copy arrives exactly once, whole and in order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "model/core/network_core.hpp"
#include "model/core/packet.hpp"
#include "model/core/random.hpp"
#include "support/recording_sink.hpp"
#include "sw/collective/path_multicast.hpp"

using namespace meshsync;
using meshsync::test::Ejection;
using meshsync::test::RecordingSink;

namespace {

NetworkConfig config(MeshShape mesh, Timing t, std::uint32_t ni_ports = 1) {
  NetworkConfig c;
  c.mesh = mesh;
  c.timing = t;
  c.router.ni_ports = ni_ports;
  return c;
}

std::uint32_t word(std::uint64_t packet, std::uint16_t i) {
  return static_cast<std::uint32_t>(packet * 1000 + i);
}

// Injects `w` from `sender` in `cycle` on `channel` and tells the scoreboard.
std::uint64_t send_worm(NetworkCore& net, RecordingSink& sink, NodeId sender, const Worm& w,
                        std::uint16_t data, std::uint64_t cycle, int channel = 0) {
  const std::uint64_t id = net.new_packet_id();
  std::vector<std::uint32_t> words;
  for (std::uint16_t i = 0; i < data; ++i) words.push_back(word(id, i));
  const auto flits = make_multicast_worm(id, sender, w.dests, w.base(), w.first_hop, data, cycle, words);
  sink.board.expect_multicast(id, sender, w.dests, static_cast<std::uint16_t>(flits.size()), cycle, words);
  for (const Flit& f : flits) net.inject(sender, f, cycle, channel);
  return id;
}

const Timing kTimings[] = {{1000, 5, 5, 30}, {7, 1, 1, 3}, {50, 3, 2, 9}};

}  // namespace

TEST_CASE("worms: each destination absorbs its copy at the unicast formula's cycle",
          "[core][multicast][latency]") {
  const MeshShape mesh{8, 8};
  const NodeId src = mesh.id({0, 3});
  const std::vector<NodeId> dests = {mesh.id({6, 5}), mesh.id({7, 3}), mesh.id({3, 4}),
                                     mesh.id({6, 6}), mesh.id({4, 4}), mesh.id({6, 7}),
                                     mesh.id({2, 3}), mesh.id({1, 5})};
  for (const Timing& t : kTimings)
    for (MulticastAlgorithm a : kAllMulticastAlgorithms)
      for (std::uint32_t ports : {1u, 4u}) {
        const MulticastPlan plan = plan_multicast(a, mesh, src, dests);
        for (const MulticastStep& step : plan.steps)
          for (const Worm& w : step.worms) {
            NetworkCore net(config(mesh, t, ports));
            RecordingSink sink;
            net.set_sink(&sink);
            const std::uint16_t data = 6;
            const std::uint64_t at = 5;
            const std::uint64_t id = send_worm(net, sink, step.sender, w, data, at);
            net.run_until_idle();
            CHECK(sink.board.errors().empty());
            CHECK(sink.board.in_flight() == 0);
            const auto k = static_cast<std::uint64_t>(w.dests.size());
            for (std::size_t j = 0; j < w.dests.size(); ++j) {
              const std::uint64_t h = static_cast<std::uint64_t>(w.dest_hops[j]);
              std::uint64_t tail = 0, flits = 0;
              for (const Ejection& e : sink.out)
                if (e.flit.packet == id && e.node == w.dests[j]) {
                  ++flits;
                  if (e.flit.tail) tail = e.cycle;
                  if (!e.flit.addr) CHECK(e.flit.payload == word(id, static_cast<std::uint16_t>(e.flit.seq - k)));
                }
              INFO(algorithm_name(a) << " ports " << ports << " dest " << j);
              CHECK(flits == k - j + data);
              CHECK(tail == at + h * t.tp + (h + 1) * t.trn + (k + data - 1));
            }
          }
      }
}

TEST_CASE("worms: a forwarded worm is headed by the next address, on the VC of its base",
          "[core][multicast]") {
  const MeshShape mesh{4, 4};
  NetworkCore net(config(mesh, {10, 1, 1, 3}));
  RecordingSink sink;
  net.set_sink(&sink);
  // DP example of NOTES-multicast: the Hl worm from (1,1) visits (2,0), (0,0).
  Worm w;
  w.dests = {mesh.id({2, 0}), mesh.id({0, 0})};
  w.subnetwork = Subnetwork::Low;
  const std::uint64_t id = send_worm(net, sink, mesh.id({1, 1}), w, 3, 0);
  net.run_until_idle();
  CHECK(sink.board.errors().empty());
  std::map<NodeId, std::vector<Flit>> copies;
  for (const Ejection& e : sink.out)
    if (e.flit.packet == id) copies[e.node].push_back(e.flit);
  REQUIRE(copies.size() == 2);
  const auto& first = copies[mesh.id({2, 0})];
  const auto& last = copies[mesh.id({0, 0})];
  REQUIRE(first.size() == 5);
  REQUIRE(last.size() == 4);
  CHECK((first[0].head && first[0].addr && first[0].more && first[0].dest == mesh.id({2, 0})));
  CHECK((!first[1].head && first[1].addr && !first[1].more));  // the copy keeps flit order
  CHECK((last[0].head && last[0].addr && !last[0].more && last[0].dest == mesh.id({0, 0})));
  CHECK(last.back().tail);
  for (const Flit& f : last) CHECK(f.vc() == kSnakeVc);
}

namespace {

// `count` multicasts of `k` destinations (random algorithm, source and destinations) and
// as many 5-flit unicasts, created at random cycles below `spread`.
std::uint64_t random_mix(NetworkCore& net, RecordingSink& sink, std::uint64_t seed, int count,
                         std::size_t k, std::uint64_t spread) {
  const MeshShape mesh = net.mesh();
  const auto nodes = static_cast<std::uint64_t>(mesh.nodes());
  const bool all_port = net.config().router.ni_ports == 4;
  Random rng(seed);
  std::uint64_t packets = 0;
  for (int m = 0; m < count; ++m) {
    const auto src = static_cast<NodeId>(rng.below(nodes));
    std::vector<NodeId> dests;
    while (dests.size() < k) {
      const auto d = static_cast<NodeId>(rng.below(nodes));
      if (d != src && std::find(dests.begin(), dests.end(), d) == dests.end()) dests.push_back(d);
    }
    const auto a = kAllMulticastAlgorithms[rng.below(4)];
    const std::uint64_t at = rng.below(spread);
    int channel = 0;
    for (const MulticastStep& step : plan_multicast(a, mesh, src, dests).steps)
      for (const Worm& w : step.worms) {
        send_worm(net, sink, step.sender, w, 8, at, all_port ? channel++ % 4 : 0);
        ++packets;
      }
    const auto to = static_cast<NodeId>((src + 1 + rng.below(nodes - 1)) % nodes);
    const std::uint64_t id = net.new_packet_id();
    sink.board.expect(id, src, to, 5, at);
    for (const Flit& f : make_worm(id, src, to, 5, at)) net.inject(src, f, at);
    ++packets;
  }
  return packets;
}

}  // namespace

TEST_CASE("worms: many multicasts and unicasts at once all arrive exactly once (all-port)",
          "[core][multicast][load]") {
  for (const auto& [mesh, count, spread] :
       {std::tuple{MeshShape{6, 6}, 120, 200ull}, std::tuple{MeshShape{10, 10}, 6000, 30000ull}}) {
    NetworkConfig cfg = config(mesh, {10, 1, 1, 3}, 4);
    cfg.router.buffer_depth = 4;
    NetworkCore net(cfg);
    RecordingSink sink;
    net.set_sink(&sink);
    const std::uint64_t packets = random_mix(net, sink, 21, count, 10, spread);
    INFO(mesh.width << "x" << mesh.height);
    REQUIRE_NOTHROW(net.run_until_idle());
    CHECK(sink.board.errors().empty());
    CHECK(sink.board.in_flight() == 0);
    CHECK(sink.board.delivered_packets() == packets);
  }
}

TEST_CASE("worms: a one-port NI can deadlock on its consumption channel, and the report says where",
          "[core][multicast][deadlock]") {
  // docs/deadlock.md: an absorbing worm holds the Local output while its forwarded part
  // waits for a link. The same mix that all-port carries (above) stops here.
  NetworkCore net(config({6, 6}, {10, 1, 1, 3}, 1));
  RecordingSink sink;
  net.set_sink(&sink);
  random_mix(net, sink, 21, 120, 10, 200);
  try {
    net.run_until_idle();
    FAIL("expected a deadlock");
  } catch (const DeadlockError& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("snake_worm"));
    CHECK_THAT(what, Catch::Contains("and local (credits"));
    CHECK_THAT(what, Catch::Contains("waiting for output local (worm VC held by input"));
  }
}

namespace {

// The links each multidestination worm's heads take out of the routers, in order.
struct HeadLinks : NetworkProbe {
  explicit HeadLinks(MeshShape m) : mesh(m) {}
  MeshShape mesh;
  std::map<std::uint64_t, std::vector<std::pair<NodeId, Port>>> taken;  // packet -> (node, port)
  void on_output(NodeId node, int port, const Flit& f, std::uint64_t) override {
    if (f.mcast && f.head && port >= 1 && port < kPorts) taken[f.packet].emplace_back(node, kAllPorts[port]);
  }
  void after_step(NodeId, std::uint64_t) override {}
  void touch(NodeId, std::uint64_t) override {}
  std::uint64_t next_cycle() const override { return kNever; }
  void begin_cycle(std::uint64_t) override {}
};

}  // namespace

TEST_CASE("worms: MP worms leave the source by their plan's distinct ports and follow the plan",
          "[core][multicast][mp]") {
  // The head carries the plan's forced first hop; the router it is injected into takes
  // it, the routers after it follow the snake rule: every worm's links are its plan's.
  Random rng(33);
  std::size_t forced = 0, worms = 0;
  for (const MeshShape mesh : {MeshShape{6, 6}, MeshShape{7, 5}, MeshShape{10, 10}})
    for (std::uint32_t ports : {1u, 4u})
      for (int trial = 0; trial < 60; ++trial) {
        const auto nodes = static_cast<std::uint64_t>(mesh.nodes());
        const auto src = static_cast<NodeId>(rng.below(nodes));
        std::vector<NodeId> dests;
        const std::size_t k = 1 + rng.below(std::min<std::uint64_t>(nodes - 1, 20));
        while (dests.size() < k) {
          const auto d = static_cast<NodeId>(rng.below(nodes));
          if (d != src && std::find(dests.begin(), dests.end(), d) == dests.end()) dests.push_back(d);
        }
        const MulticastPlan plan = plan_multicast(MulticastAlgorithm::MP, mesh, src, dests);
        NetworkCore net(config(mesh, {10, 1, 1, 3}, ports));
        RecordingSink sink;
        HeadLinks probe(mesh);
        net.set_sink(&sink);
        net.set_probe(&probe);
        std::vector<std::uint64_t> ids;
        int channel = 0;
        for (const Worm& w : plan.steps.at(0).worms)
          ids.push_back(send_worm(net, sink, src, w, 4, 0, ports == 4 ? channel++ : 0));
        net.run_until_idle();
        REQUIRE(sink.board.errors().empty());
        REQUIRE(sink.board.in_flight() == 0);
        const auto& sent = plan.steps[0].worms;
        REQUIRE(sent.size() <= kInjectionChannels);
        std::set<Port> first_ports;
        for (std::size_t i = 0; i < sent.size(); ++i) {
          const auto& links = probe.taken[ids[i]];
          INFO(mesh.width << "x" << mesh.height << " source " << src << " worm " << i);
          REQUIRE(links.size() == sent[i].path.size());
          // Out of the source by the plan's port, and after it the plan's nodes.
          CHECK(links.front().first == src);
          CHECK(links.front().second == sent[i].first_hop);
          NodeId at = src;
          for (std::size_t h = 0; h < links.size(); ++h) {
            CHECK(links[h].first == at);
            at = mesh.id(step(mesh.coord(at), links[h].second));
            CHECK(at == sent[i].path[h]);
          }
          first_ports.insert(links.front().second);
          forced += sent[i].first_hop != snake_port(mesh, mesh.coord(src), mesh.coord(sent[i].dests[0]),
                                                    sent[i].subnetwork);
          ++worms;
        }
        CHECK(first_ports.size() == sent.size());
      }
  // Plans where the forced hop differs from the snake rule's: the case that needs it.
  CHECK(forced > worms / 20);
  WARN(worms << " MP worms, " << forced << " of them leave where the snake rule would not");
}

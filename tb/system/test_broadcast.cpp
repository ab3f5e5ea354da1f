// Broadcasts over point-to-point messages on the whole machine: every rank ends with the
// root's bytes, zero-load timings follow the cycle contract, the adaptive tree measures its
// edges exactly on an idle mesh and recovers from a slowed link.
#include <catch2/catch.hpp>

#include "model/core/random.hpp"
#include "support/sim_helpers.hpp"
#include "sw/collective/adaptive_broadcast.hpp"
#include "sw/collective/member_spec.hpp"
#include "sw/runtime/broadcast_run.hpp"

using namespace meshsync;
using meshsync::test::make_config;
using meshsync::test::run_driver;

namespace {

SendModel split_send(SendCost cost, bool until_delivered) {
  SendModel m;
  m.cost = cost;
  m.until_delivered = until_delivered;
  return m;
}

BroadcastResult broadcast_once(const NetworkConfig& cfg, const std::vector<NodeId>& nodes, const BroadcastTree& tree,
                               const BroadcastMessage& msg, const std::vector<std::uint64_t>& entry,
                               const SendModel& send = {}) {
  Machine m(cfg);
  BroadcastResult r;
  const auto data = Random(5).bytes(msg.bytes);
  run_driver(m, [&] { r = run_broadcast(m, nodes, tree, msg, data, entry, send); });
  return r;
}

}  // namespace

TEST_CASE("broadcast: every rank gets the root's bytes, any tree, packets, skew", "[broadcast][system]") {
  const NetworkConfig cfg = make_config({8, 8});
  const std::vector<NodeId> nodes = parse_members("random:23", cfg.mesh, 4);
  const Rank root = 5;
  AdaptiveBroadcast adaptive(cfg.mesh, cfg.timing, nodes, root, adaptive::Swapping::Position);
  for (const BroadcastTree& tree : {binomial_broadcast(nodes.size(), root), adaptive.tree()})
    for (std::uint64_t bytes_ : {0u, 2u, 37u, 1000u}) {
      const BroadcastMessage msg{bytes_, 16};  // 1000 bytes: 63 packets, pipelined
      std::vector<std::uint64_t> entry(nodes.size(), 0);
      Random rng(bytes_);
      for (auto& e : entry) e = rng.below(3000);
      const BroadcastResult r = broadcast_once(cfg, nodes, tree, msg, entry);
      CHECK(r.wrong_buffers.empty());
      CHECK(r.messages == (nodes.size() - 1) * msg.packets());
      for (Rank k = 0; k < nodes.size(); ++k) {
        const RankTiming& t = r.ranks[k];
        CHECK(t.received >= t.entered);
        CHECK(t.completion() >= t.received);
        if (k != root) CHECK(t.received > r.ranks[*tree.parent[k]].entered);
      }
    }
}

TEST_CASE("broadcast: zero-load timing of the binomial tree", "[broadcast][system]") {
  const NetworkConfig cfg = make_config({4, 4});
  std::vector<NodeId> nodes;
  for (NodeId n = 0; n < 16; ++n) nodes.push_back(n);
  const BroadcastTree tree = binomial_broadcast(16, 0);
  const BroadcastMessage msg{10, 256};  // 1 head + 3 body flits
  const BroadcastResult r = broadcast_once(cfg, nodes, tree, msg, std::vector<std::uint64_t>(16, 0));
  const Timing& t = cfg.timing;
  const auto h = [&](Rank a, Rank b) { return hops(cfg.mesh.coord(nodes[a]), cfg.mesh.coord(nodes[b])); };
  // The root's first send goes to rank 1 at once; its second starts ts later, to rank 2.
  CHECK(r.ranks[1].received == zero_load_latency(t, h(0, 1), 4));
  CHECK(r.ranks[2].received == t.ts + zero_load_latency(t, h(0, 2), 4));
  // Rank 3 hears from rank 1 as soon as rank 1 has it (the network is idle).
  CHECK(r.ranks[3].received == r.ranks[1].received + zero_load_latency(t, h(1, 3), 4));
  // The root sends 4 times (children 1, 2, 4, 8); it is done when the last start-up is over.
  CHECK(r.ranks[0].completion() == 4 * t.ts);
  CHECK(*r.edge_latency[1] == zero_load_latency(t, h(0, 1), 4));
  std::uint64_t hop_sum = 0;
  for (Rank k = 1; k < 16; ++k) hop_sum += static_cast<std::uint64_t>(h(*tree.parent[k], k));
  CHECK(r.hops == hop_sum);
}

TEST_CASE("broadcast: measured edges on an idle mesh confirm the hops - 1 distances", "[broadcast][system]") {
  const NetworkConfig cfg = make_config({8, 8});
  const std::vector<NodeId> nodes = parse_members("random:30", cfg.mesh, 9);
  AdaptiveBroadcast ab(cfg.mesh, cfg.timing, nodes, 0, adaptive::Swapping::Path);
  const BroadcastTree tree = ab.tree();
  const adaptive::Cost before = ab.cost();
  const BroadcastResult r = broadcast_once(cfg, nodes, tree, BroadcastMessage{2, 256}, std::vector<std::uint64_t>(nodes.size(), 0));
  for (Rank k = 1; k < nodes.size(); ++k) {
    const int h = hops(cfg.mesh.coord(nodes[*tree.parent[k]]), cfg.mesh.coord(nodes[k]));
    // Never faster than zero load; two-flit worms 1000 cycles apart hardly meet.
    CHECK(*r.edge_latency[k] >= zero_load_latency(cfg.timing, h, 2));
    CHECK(*r.edge_latency[k] <= zero_load_latency(cfg.timing, h, 2) + cfg.timing.tp + cfg.timing.trn);
  }
  // Whatever contention added stays within the jitter: nothing is swapped.
  const AdaptStep s = ab.observe(r.edge_latency, 2, cfg.timing.tp + cfg.timing.trn);
  CHECK(s.swaps == 0);
  CHECK(ab.cost() >= before);
}

TEST_CASE("broadcast: the adaptive tree recovers from a slowed link, the binomial does not", "[broadcast][system]") {
  NetworkConfig cfg = make_config({8, 8});
  std::vector<NodeId> nodes;
  for (NodeId n = 0; n < 64; ++n) nodes.push_back(n);
  const BroadcastMessage msg{2, 256};
  const std::vector<std::uint64_t> entry(64, 0);
  const auto data = Random(1).bytes(2);
  Machine m(cfg);
  AdaptiveBroadcast ab(cfg.mesh, cfg.timing, nodes, 0, adaptive::Swapping::Position);
  const BroadcastTree binomial = binomial_broadcast(64, 0);
  std::uint64_t fast = 0, slowed = 0, recovered = 0, binomial_slowed = 0;
  run_driver(m, [&] {
    fast = run_broadcast(m, nodes, ab.tree(), msg, data, entry).latency();
    // Every message from the root eastwards crosses this link.
    m.mesh().core().set_link_delay(0, Port::PlusX, 5000);
    slowed = run_broadcast(m, nodes, ab.tree(), msg, data, entry).latency();
    const AdaptStep s = ab.observe_links({{0, Port::PlusX, 5000}});
    CHECK(s.swaps > 0);
    CHECK(s.cost_after < 5000);
    recovered = run_broadcast(m, nodes, ab.tree(), msg, data, entry).latency();
    binomial_slowed = run_broadcast(m, nodes, binomial, msg, data, entry).latency();
  });
  CHECK(slowed > fast + 4900);  // less contention behind the slow link can save a few cycles
  CHECK(binomial_slowed > fast + 4900);
  CHECK(recovered < fast + 100);
}

TEST_CASE("broadcast: LogP's split of a send: overhead o busy, head in the router after o + L", "[broadcast][system]") {
  const NetworkConfig cfg = make_config({4, 4});
  std::vector<NodeId> nodes;
  for (NodeId n = 0; n < 16; ++n) nodes.push_back(n);
  const BroadcastTree tree = binomial_broadcast(16, 0);
  const Timing& t = cfg.timing;
  const auto h = [&](Rank a, Rank b) { return hops(cfg.mesh.coord(nodes[a]), cfg.mesh.coord(nodes[b])); };
  // A message's trip once its head is in the router: the zero-load latency less the start-up.
  const auto trip = [&](Rank a, Rank b) { return zero_load_latency(t, h(a, b), 4) - t.ts; };
  const std::uint32_t o = 100, L = 400;
  const BroadcastMessage msg{10, 256};
  const std::vector<std::uint64_t> together(16, 0);
  const BroadcastResult posted = broadcast_once(cfg, nodes, tree, msg, together, split_send(SendCost{o, L, 0}, false));
  CHECK(posted.wrong_buffers.empty());
  // The root's sends follow each other o apart; each head enters o + L after its call.
  CHECK(posted.ranks[1].received == o + L + trip(0, 1));
  CHECK(posted.ranks[2].received == o + o + L + trip(0, 2));
  CHECK(posted.ranks[3].received == posted.ranks[1].received + o + L + trip(1, 3));
  CHECK(posted.ranks[0].completion() == 4 * o);  // posted: its fourth send's overhead ends
  // Done at delivery: the root leaves when its last message (to rank 8) has arrived.
  const BroadcastResult delivered = broadcast_once(cfg, nodes, tree, msg, together, split_send(SendCost{o, L, 0}, true));
  CHECK(delivered.wrong_buffers.empty());
  CHECK(delivered.ranks[1].received == posted.ranks[1].received);
  CHECK(delivered.ranks[0].completion() == delivered.ranks[8].received);
  CHECK(delivered.ranks[0].completion() == 4 * o + L + trip(0, 8));
  for (Rank k = 1; k < 16; ++k)
    if (!tree.children[k].empty())
      CHECK(delivered.ranks[k].completion() >= delivered.ranks[tree.children[k].back()].received);
  // A gap of g between the root's heads: its second enters at max(2 o + L, o + L + g).
  const BroadcastResult gapped = broadcast_once(cfg, nodes, tree, msg, together, split_send(SendCost{o, L, 3 * o}, false));
  CHECK(gapped.wrong_buffers.empty());
  CHECK(gapped.ranks[1].received == posted.ranks[1].received);
  CHECK(gapped.ranks[2].received == o + L + 3 * o + trip(0, 2));
  CHECK(gapped.ranks[0].completion() == 4 * o);  // the gap holds the NI, not the software
  // Without a SendCost the start-up ts is both: the default is the split o = ts, L = 0.
  const BroadcastResult split = broadcast_once(cfg, nodes, tree, msg, together, split_send(SendCost{t.ts, 0, 0}, false));
  const BroadcastResult plain = broadcast_once(cfg, nodes, tree, msg, together);
  for (Rank k = 0; k < 16; ++k) {
    CHECK(split.ranks[k].received == plain.ranks[k].received);
    CHECK(split.ranks[k].completion() == plain.ranks[k].completion());
  }
}

// Path-based multicast run by the nodes' software through their NIs (sw/runtime/multicast):
// alone, every destination has the message at the cycle of the router's analytic sum
// where no two worms compete; under load, every destination gets exactly one copy,
// unmodified, for all four algorithms; QG never needs more than two start-ups; the load
// measurement is deterministic for a seed and notices saturation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "model/core/random.hpp"
#include "support/multicast_setup.hpp"
#include "support/sim_helpers.hpp"
#include "sw/runtime/multicast_load.hpp"

using namespace meshsync;
using meshsync::test::run_driver;

namespace {

using test::multicast_config;
MulticastSettings settings(MulticastAlgorithm a, std::uint16_t data_flits) { return test::multicast_settings(a, data_flits); }

std::vector<NodeId> random_dests(Random& rng, const MeshShape& mesh, NodeId src, std::size_t k) {
  std::vector<NodeId> others;
  for (NodeId n = 0; n < static_cast<NodeId>(mesh.nodes()); ++n)
    if (n != src) others.push_back(n);
  rng.partial_shuffle(others.begin(), others.end(), k);
  others.resize(k);
  return others;
}

using Link = std::pair<NodeId, NodeId>;

// The links a worm takes in the routers: its forced first hop (MP), then XY or snake_next
// between its destinations. The plan's path says the same (and the router core's tests
// check the routers' outputs against it).
std::vector<Link> links_of(const MeshShape& mesh, NodeId sender, const Worm& w) {
  std::vector<Link> out;
  Coord at = mesh.coord(sender);
  const auto hop = [&](Coord next) {
    out.emplace_back(mesh.id(at), mesh.id(next));
    at = next;
  };
  if (w.first_hop != Port::Local) hop(step(at, w.first_hop));
  for (std::size_t i = 0; i < w.dests.size(); ++i) {
    const Coord to = mesh.coord(w.dests[i]);
    while (at != to) hop(w.xy ? step(at, next_port(at, to, Route::XY)) : snake_next(mesh, at, to, w.subnetwork));
    CHECK(out.size() == static_cast<std::size_t>(w.dest_hops[i]));
  }
  CHECK(out.back().second == w.path.back());
  return out;
}

// Destinations whose arrival no competition can delay: their worm, the worms before it on
// its injection channel and the chain that reached its sender (QG step 2) share no link
// with any other worm of the plan.
std::set<NodeId> uncontended(const MeshShape& mesh, const MulticastPlan& plan, std::uint32_t ni_ports) {
  std::map<Link, int> use;
  for (const MulticastStep& s : plan.steps)
    for (const Worm& w : s.worms)
      for (const Link& l : links_of(mesh, s.sender, w)) ++use[l];
  std::map<NodeId, bool> clean;                       // destination -> nothing delays it
  std::map<std::pair<NodeId, std::size_t>, bool> channel_clean;  // (sender, channel)
  for (const MulticastStep& s : plan.steps)
    for (std::size_t i = 0; i < s.worms.size(); ++i) {
      bool alone = s.sender == plan.source || clean.at(s.sender);
      for (const Link& l : links_of(mesh, s.sender, s.worms[i])) alone = alone && use[l] == 1;
      auto ch = channel_clean.emplace(std::make_pair(s.sender, i % ni_ports), true).first;
      alone = ch->second = ch->second && alone;
      for (NodeId d : s.worms[i].dests) clean[d] = alone;
    }
  std::set<NodeId> out;
  for (const auto& [d, ok] : clean)
    if (ok) out.insert(d);
  return out;
}

}  // namespace

TEST_CASE("multicast: alone, every uncontended destination meets the router's analytic sum",
          "[system][multicast][latency]") {
  struct Case {
    MeshShape mesh;
    Timing timing;
    std::uint16_t data;
    std::uint32_t ports;
  };
  const Case cases[] = {{{10, 10}, {33, 1, 1, 30}, 32, 4},
                        {{8, 8}, {50, 2, 3, 30}, 5, 4},
                        {{16, 16}, {33, 1, 1, 30}, 32, 4},
                        {{6, 6}, {40, 1, 2, 30}, 4, 1}};
  for (const Case& c : cases)
    for (MulticastAlgorithm a : kAllMulticastAlgorithms) {
      Random rng(7);
      std::vector<MulticastCall> calls;
      for (int i = 0; i < 12; ++i) {
        const auto src = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(c.mesh.nodes())));
        calls.push_back({src, random_dests(rng, c.mesh, src, 2 + rng.below(14))});
      }
      Machine m(multicast_config(c.mesh, c.timing, c.ports));
      const MulticastSettings s = settings(a, c.data);
      MulticastService svc(m, s);
      std::vector<MulticastRecord> got;
      run_driver(m, [&] { got = run_in_turn(m, svc, calls); });
      REQUIRE(svc.errors().empty());
      REQUIRE(got.size() == calls.size());
      std::size_t exact = 0, total = 0;
      for (const MulticastRecord& r : got) {
        const MulticastPlan plan = plan_multicast(a, c.mesh, r.source, r.dests);
        const auto analytic = router_zero_load_arrivals(plan, c.timing, s.prep, s.data_flits, c.ports);
        const std::set<NodeId> alone = uncontended(c.mesh, plan, c.ports);
        REQUIRE(r.arrivals.size() == r.dests.size());
        CHECK(r.startups == plan.startups());
        for (const auto& [node, cycle] : r.arrivals) {
          std::string where;
          for (NodeId d : r.dests) where += std::to_string(c.mesh.coord(d).x) + "," + std::to_string(c.mesh.coord(d).y) + ";";
          INFO(algorithm_name(a) << " " << c.mesh.width << "x" << c.mesh.height << " ports " << c.ports << " multicast "
                                 << r.id << " from " << c.mesh.coord(r.source).x << "," << c.mesh.coord(r.source).y
                                 << " to " << where << " node " << c.mesh.coord(node).x << "," << c.mesh.coord(node).y);
          const std::uint64_t simulated = cycle - r.called;
          CHECK(simulated >= analytic.at(node));  // the sum is a lower bound everywhere
          ++total;
          // QG (all-port): a step-1 worm and a step-2 worm may share links, but never at
          // once: step 2 leaves a representative prep + ts after the step-1 tail has, and
          // each segment is minimal, so it cannot catch up with that tail.
          const bool qg = a == MulticastAlgorithm::QG && c.ports == 4;
          if (alone.count(node) || qg) {
            CHECK(simulated == analytic.at(node));
            ++exact;
          }
        }
      }
      // The comparison must not be vacuous: DP's two worms never share a link (Hu and
      // Hl are disjoint), so every destination counts. Nor do MP's four, now that each
      // leaves by its quadrant's port: a quadrant's segments stay in the columns ahead of
      // the source (Q1, Q3) or not ahead (Q2, Q4), so the two worms of one subnetwork
      // use disjoint columns.
      if (c.ports == 4 && (a == MulticastAlgorithm::DP || a == MulticastAlgorithm::MP)) CHECK(exact == total);
      CHECK(exact > 0);
    }
}

TEST_CASE("multicast: under load every destination gets exactly one copy, unmodified",
          "[system][multicast][load]") {
  const MeshShape mesh{6, 6};
  for (MulticastAlgorithm a : kAllMulticastAlgorithms) {
    Machine m(multicast_config(mesh, {33, 1, 1, 30}));
    MulticastService svc(m, settings(a, 8));
    std::vector<MulticastRecord> done;
    std::size_t calls = 0;
    run_driver(m, [&] {
      // 150 multicasts from random nodes within 3000 cycles: several at once at every
      // moment, so worms meet on links and at NIs.
      Random rng(11);
      for (int i = 0; i < 150; ++i) {
        const auto src = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(mesh.nodes())));
        const auto dests = random_dests(rng, mesh, src, 1 + rng.below(12));
        m.mesh().at(1 + rng.below(3000), [&, src, dests] {
          ++calls;
          svc.multicast(src, dests, [&](const MulticastRecord& r) { done.push_back(r); });
        });
      }
    });
    INFO(algorithm_name(a));
    // Words compared by the service; flit order and destinations by the scoreboard
    // (Machine::run throws on either).
    CHECK(svc.errors().empty());
    CHECK(m.mesh().scoreboard().errors().empty());
    CHECK(m.mesh().scoreboard().in_flight() == 0);
    CHECK(svc.in_progress() == 0);
    REQUIRE(done.size() == 150);
    CHECK(calls == 150);
    for (const MulticastRecord& r : done) {
      std::set<NodeId> want(r.dests.begin(), r.dests.end()), got;
      for (const auto& [node, cycle] : r.arrivals) got.insert(node);
      CHECK(got == want);
      CHECK(r.finished >= r.called + r.zero_load);
    }
  }
}

TEST_CASE("multicast: QG needs at most two start-ups, however many destinations",
          "[system][multicast][qg]") {
  const MeshShape mesh{16, 16};
  Random rng(5);
  std::vector<MulticastCall> calls;
  for (std::size_t k : {1, 2, 5, 20, 60, 120, 255}) {
    const auto src = static_cast<NodeId>(rng.below(256));
    calls.push_back({src, random_dests(rng, mesh, src, k)});
  }
  Machine m(multicast_config(mesh, {33, 1, 1, 30}));
  MulticastService svc(m, settings(MulticastAlgorithm::QG, 4));
  std::vector<MulticastRecord> got;
  run_driver(m, [&] { got = run_in_turn(m, svc, calls); });
  REQUIRE(got.size() == calls.size());
  CHECK(svc.errors().empty());
  for (const MulticastRecord& r : got) {
    INFO(r.dests.size() << " destinations");
    // Counted as the NIs were asked: the start-ups of the chain that reached each node.
    CHECK(r.startups <= 2);
    CHECK(r.startups == plan_multicast(MulticastAlgorithm::QG, mesh, r.source, r.dests).startups());
    CHECK(r.arrivals.size() == r.dests.size());
  }
}

TEST_CASE("multicast: the load measurement is deterministic for a seed and marks saturation",
          "[system][multicast][load][determinism]") {
  const MeshShape mesh{6, 6};
  const auto measure = [&](MulticastAlgorithm a, double rate, std::uint64_t seed) {
    Machine m(multicast_config(mesh, {33, 1, 1, 30}));
    MulticastService svc(m, settings(a, 16));
    MulticastLoad p;
    p.rate = rate;
    p.destinations = 6;
    p.warmup = 30;
    p.batches = 4;
    p.batch_size = 40;
    p.seed = seed;
    MulticastLoadResult r;
    run_driver(m, [&] {
      r = measure_multicast_load(m, svc, p);
      m.stop();
    });
    CHECK(svc.errors().empty());
    return r;
  };
  for (MulticastAlgorithm a : {MulticastAlgorithm::DP, MulticastAlgorithm::QG}) {
    const MulticastLoadResult x = measure(a, 0.002, 3), y = measure(a, 0.002, 3), z = measure(a, 0.002, 4);
    INFO(algorithm_name(a));
    CHECK_FALSE(x.saturated);
    CHECK(x.measured == 160);
    CHECK(x.batch_means.size() == 4);
    CHECK(x.latency_avg == y.latency_avg);
    CHECK(x.batch_means == y.batch_means);
    CHECK(x.latency_p99 == y.latency_p99);
    CHECK(x.cycles == y.cycles);
    CHECK(x.cycles != z.cycles);  // the seed does reach the generators
    CHECK(x.latency_avg >= x.zero_load_avg);
    // Far beyond what the network carries, the backlog grows until the limit stops it.
    const MulticastLoadResult over = measure(a, 0.2, 3);
    CHECK(over.saturated);
    CHECK_THAT(over.saturation, Catch::Contains("backlog"));
    CHECK(over.deadlock.empty());  // saturated, and it drained
    // Stopped before a measured multicast finished: nothing to average, empty rather than 0.
    CHECK(over.measured == 0);
    CHECK_FALSE(over.latency_avg.has_value());
    CHECK_FALSE(over.latency_p99.has_value());
    CHECK_FALSE(over.throughput.has_value());
  }
}

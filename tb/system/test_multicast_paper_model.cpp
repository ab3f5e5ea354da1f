// The QG paper's model, switch by switch (docs/multicast.md): a hop of one cycle (tp 0)
// and address flits within the message keep the zero-load sums exact; QG on e-cube routes
// XY and deadlocks under load, which the load measurement reports as a deadlock (where
// the worms are stuck), not as saturation; a sender engaged until delivery starts its
// next job only then.
#include <catch2/catch.hpp>

#include <algorithm>

#include "model/core/random.hpp"
#include "support/multicast_setup.hpp"
#include "support/sim_helpers.hpp"
#include "sw/runtime/multicast_load.hpp"

using namespace meshsync;
using meshsync::test::run_driver;

namespace {

NetworkConfig all_port(MeshShape mesh, Timing t) { return test::multicast_config(mesh, t, 4); }
MulticastSettings settings(MulticastAlgorithm a, std::uint16_t flits) { return test::multicast_settings(a, flits); }

std::vector<MulticastCall> random_calls(const MeshShape& mesh, std::uint64_t seed, int n, std::size_t most) {
  Random rng(seed);
  std::vector<MulticastCall> calls;
  for (int i = 0; i < n; ++i) {
    const auto src = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(mesh.nodes())));
    std::vector<NodeId> others;
    for (NodeId d = 0; d < static_cast<NodeId>(mesh.nodes()); ++d)
      if (d != src) others.push_back(d);
    const std::size_t k = 1 + rng.below(most);
    rng.partial_shuffle(others.begin(), others.end(), k);
    others.resize(k);
    calls.push_back({src, others});
  }
  return calls;
}

}  // namespace

TEST_CASE("paper model: with a hop of one cycle and address flits within, DP and MP meet the analytic sum",
          "[system][multicast][paper-model]") {
  const MeshShape mesh{10, 10};
  for (const std::uint32_t tp : {0u, 1u})
    for (const AddressFlits addresses : kAllAddressFlits)
      for (const MulticastAlgorithm a : {MulticastAlgorithm::DP, MulticastAlgorithm::MP}) {
        const Timing t{33, tp, 1, 30};
        Machine m(all_port(mesh, t));
        MulticastSettings s = settings(a, 32);
        s.model.addresses = addresses;
        MulticastService svc(m, s);
        const std::vector<MulticastCall> calls = random_calls(mesh, 3, 10, 20);
        std::vector<MulticastRecord> got;
        run_driver(m, [&] { got = run_in_turn(m, svc, calls); });
        INFO(algorithm_name(a) << " tp " << tp << " addresses " << address_flits_name(addresses));
        // The service compares every copy's words with what its worm carried.
        REQUIRE(svc.errors().empty());
        REQUIRE(got.size() == calls.size());
        for (const MulticastRecord& r : got) {
          const MulticastPlan plan = plan_multicast(a, mesh, r.source, r.dests);
          const auto analytic = router_zero_load_arrivals(plan, t, s.prep, 32, 4, addresses);
          for (const auto& [node, cycle] : r.arrivals) CHECK(cycle - r.called == analytic.at(node));
        }
      }
}

TEST_CASE("paper model: a one-cycle hop takes one cycle less per hop than tp 1", "[system][multicast][paper-model]") {
  // DP from (0,0) along row 0 to (9,0): 9 hops, one worm with one address flit.
  const MeshShape mesh{10, 10};
  std::uint64_t latency[2] = {};
  for (const std::uint32_t tp : {0u, 1u}) {
    Machine m(all_port(mesh, {33, tp, 1, 30}));
    MulticastService svc(m, settings(MulticastAlgorithm::DP, 32));
    std::vector<MulticastRecord> got;
    run_driver(m, [&] { got = run_in_turn(m, svc, {{mesh.id({0, 0}), {mesh.id({9, 0})}}}); });
    latency[tp] = got.at(0).latency();
  }
  // prep 2 + ts 33 + 9 hops x (tp + trn) + trn + 33 flits - 1
  CHECK(latency[0] == 2 + 33 + 9 * 1 + 1 + 32);
  CHECK(latency[1] == latency[0] + 9);
}

TEST_CASE("paper model: address flits within need a data flit to spare", "[system][multicast][paper-model]") {
  CHECK_NOTHROW(check_worm_length(32, 31, AddressFlits::Within));
  CHECK_THROWS_AS(check_worm_length(32, 32, AddressFlits::Within), ConfigError);
  CHECK_NOTHROW(check_worm_length(1, 500, AddressFlits::OnTop));
  // A worm to 5 destinations: 27 data flits within a 32-flit message, 32 on top of them.
  Worm w;
  w.dests = {1, 2, 3, 4, 5};
  CHECK(worm_data_flits(w, 32, AddressFlits::Within) == 27);
  CHECK(worm_data_flits(w, 32, AddressFlits::OnTop) == 32);
}

TEST_CASE("paper model: QG on e-cube routes XY, arrives alone, and deadlocks under load, reported as such",
          "[system][multicast][paper-model][deadlock]") {
  const MeshShape mesh{10, 10};
  const NetworkConfig cfg = all_port(mesh, {33, 1, 1, 30});
  for (const MulticastCall& c : random_calls(mesh, 5, 20, 30)) {
    const MulticastPlan snake = plan_multicast(MulticastAlgorithm::QG, mesh, c.source, c.dests);
    const MulticastPlan ecube = plan_multicast(MulticastAlgorithm::QG, mesh, c.source, c.dests, 0.5, QgRouting::Ecube);
    REQUIRE(ecube.steps.size() == snake.steps.size());
    for (std::size_t i = 0; i < ecube.steps.size(); ++i) {
      // The same groups and delivery order; only the base routing differs.
      REQUIRE(ecube.steps[i].worms.size() == snake.steps[i].worms.size());
      for (std::size_t w = 0; w < ecube.steps[i].worms.size(); ++w) {
        CHECK(ecube.steps[i].worms[w].xy);
        CHECK(ecube.steps[i].worms[w].dests == snake.steps[i].worms[w].dests);
      }
    }
  }
  {
    Machine m(cfg);
    MulticastSettings s = settings(MulticastAlgorithm::QG, 32);
    s.model.qg_routing = QgRouting::Ecube;
    MulticastService svc(m, s);
    const std::vector<MulticastCall> calls = random_calls(mesh, 8, 10, 20);
    std::vector<MulticastRecord> got;
    run_driver(m, [&] { got = run_in_turn(m, svc, calls); });
    CHECK(svc.errors().empty());
    REQUIRE(got.size() == calls.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i].arrivals.size() == calls[i].dests.size());
  }
  // Under load XY chains between destinations close a cycle of waiting worms: the network
  // does not drain once generation stops, so the run says deadlock and where (the
  // program fails with it, exit 3: tb/system/test_unfinished_runs.cpp).
  const auto measure = [&](QgRouting routing) {
    NetworkConfig c = cfg;
    c.deadlock_cycles = 20000;
    Machine m(c);
    MulticastSettings s = settings(MulticastAlgorithm::QG, 32);
    s.model.qg_routing = routing;
    MulticastService svc(m, s);
    MulticastLoad p;
    p.rate = 0.0002;
    p.destinations = 20;
    p.warmup = 100;
    p.batches = 4;
    p.batch_size = 100;
    MulticastLoadResult r;
    run_driver(m, [&] {
      r = measure_multicast_load(m, svc, p);
      m.stop();
    });
    return r;
  };
  const MulticastLoadResult deadlocked = measure(QgRouting::Ecube);
  CHECK(deadlocked.saturated);
  CHECK_THAT(deadlocked.deadlock, Catch::Contains(" multicasts unfinished and no flit moved for ") && Catch::Contains("\n  router ("));
  const MulticastLoadResult snake = measure(QgRouting::Snake);
  CHECK_FALSE(snake.saturated);
  CHECK(snake.deadlock.empty());
}

TEST_CASE("paper model: a sender engaged until delivery starts its next multicast only then",
          "[system][multicast][paper-model]") {
  const MeshShape mesh{8, 8};
  const Timing t{33, 1, 1, 30};
  const NodeId src = mesh.id({3, 3});
  const std::vector<NodeId> first{mesh.id({7, 7}), mesh.id({0, 0})}, second{mesh.id({6, 1}), mesh.id({1, 6})};
  const auto run = [&](SenderBusy busy) {
    Machine m(all_port(mesh, t));
    MulticastSettings s = settings(MulticastAlgorithm::DP, 32);
    s.model.sender_busy = busy;
    MulticastService svc(m, s);
    std::vector<MulticastRecord> got;
    run_driver(m, [&] {
      // Both called in the same cycle: the second waits for the source's CPU.
      m.mesh().wait_cycle(1);
      for (const auto* dests : {&first, &second})
        svc.multicast(src, *dests, [&](const MulticastRecord& r) { got.push_back(r); });
    });
    REQUIRE(svc.errors().empty());
    REQUIRE(got.size() == 2);
    std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return got;
  };
  const auto engaged = run(SenderBusy::Delivery), free = run(SenderBusy::StartUps);
  const auto analytic = router_zero_load_arrivals(plan_multicast(MulticastAlgorithm::DP, mesh, src, second), t, 2, 32, 4);
  // Engaged: the second job starts when the first multicast's last worm is delivered.
  for (const auto& [node, cycle] : engaged[1].arrivals) CHECK(cycle == engaged[0].finished + analytic.at(node));
  // Free: it starts once the first job's start-up is paid.
  for (const auto& [node, cycle] : free[1].arrivals) CHECK(cycle == free[1].called + 2 + 33 + analytic.at(node));
  CHECK(engaged[0].finished == free[0].finished);
}

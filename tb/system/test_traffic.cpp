// Barriers next to background unicast load, the scoreboard's every-flit-once check, and
// determinism of traffic runs.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "model/core/traffic.hpp"
#include "sw/runtime/experiments/traffic_experiment.hpp"
#include "support/sim_helpers.hpp"
#include "support/tree_reference.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

TrafficParams params(std::uint64_t seed, double rate, std::uint16_t flits, std::uint64_t cycles,
                     TrafficPattern pattern = TrafficPattern::Uniform) {
  TrafficParams p;
  p.pattern = pattern;
  p.rate = rate;
  p.flits = flits;
  p.warmup = 500;
  p.cycles = cycles;
  p.seed = seed;
  return p;
}

}  // namespace

TEST_CASE("barriers under uniform background traffic: all flits once, no deadlock", "[system][traffic][barrier]") {
  const MeshShape mesh{8, 8};
  const Timing t{40, 1, 1, 4};
  // One unicast VC (the papers' router), and three (--vcs: the worms change VCs at every
  // hop beside the sync messages).
  const std::uint32_t vcs = GENERATE(1u, 3u);
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS}) {
    INFO(scheme_name(scheme) << ", " << vcs << " unicast VCs");
    NetworkConfig cfg = make_config(mesh, t);
    cfg.router.unicast_vcs = vcs;
    Machine m(cfg);
    TrafficGenerator gen(params(7, 0.08, 4, 6000), mesh, 0);
    m.mesh().attach_traffic(&gen);
    const auto members = ref::random_members(mesh, 24, 77);
    const Communicator c = m.groups().create(mesh, members, scheme);
    const std::uint64_t analytic = c.tree->analytic_cycles(t);
    const int rounds = 25;
    std::vector<std::vector<std::uint64_t>> rel(static_cast<std::size_t>(rounds));
    std::vector<std::uint64_t> arrival(static_cast<std::size_t>(rounds));
    std::size_t joined = 0, released = 0;
    sc_core::sc_event all_joined, start, all_released;
    // Software messages between members ride along too.
    std::size_t messages = 0;
    for (std::size_t k = 0; k < members.size(); ++k)
      m.spawn("member_" + std::to_string(k), [&, k] {
        Node& node = m.node(members[k]);
        join(node, c);
        if (++joined == members.size()) all_joined.notify(sc_core::SC_ZERO_TIME);
        for (int e = 0; e < rounds; ++e) {
          sc_core::wait(start);
          rel[static_cast<std::size_t>(e)].push_back(barrier(node, c));
          if (++released == members.size()) all_released.notify(sc_core::SC_ZERO_TIME);
        }
        node.send(members[(k + 1) % members.size()], {static_cast<std::uint32_t>(k)});
        const NiReceive r = node.receive();
        CHECK(r.src == members[(k + members.size() - 1) % members.size()]);
        ++messages;
      });
    m.spawn("driver", [&] {
      if (joined < members.size()) sc_core::wait(all_joined);
      wait_cycles(200);
      for (int e = 0; e < rounds; ++e) {
        released = 0;
        // All members arrive together in the next cycle.
        arrival[static_cast<std::size_t>(e)] = m.now() + 1;
        start.notify(MeshSystem::cycle_time());
        sc_core::wait(all_released);
        wait_cycles(37);
      }
    });
    m.run();  // throws SimulationError on a deadlock
    CHECK(messages == members.size());
    for (int e = 0; e < rounds; ++e) {
      const auto& r = rel[static_cast<std::size_t>(e)];
      REQUIRE(r.size() == members.size());
      const std::uint64_t last = *std::max_element(r.begin(), r.end());
      const std::uint64_t first = *std::min_element(r.begin(), r.end());
      INFO("epoch " << e);
      CHECK(first > arrival[static_cast<std::size_t>(e)]);
      CHECK(last - arrival[static_cast<std::size_t>(e)] >= analytic);
    }
    CHECK(gen.finished());
    CHECK(gen.scoreboard().errors().empty());
    CHECK(gen.scoreboard().in_flight() == 0);
    const TrafficResult res = gen.result();
    CHECK(res.packets_measured > 1000);
    CHECK(res.flits_delivered == 4 * res.packets_delivered);
    CHECK(res.accepted == Approx(res.offered).epsilon(0.1));
    CHECK(m.mesh().scoreboard().errors().empty());
    CHECK(m.mesh().scoreboard().in_flight() == 0);
    CHECK(m.mesh().scoreboard().delivered_packets() == members.size());
  }
}

namespace {

struct RunSummary {
  TrafficResult r;
  std::uint64_t end_cycle = 0;
  std::uint64_t worm_hops = 0;
  bool operator==(const RunSummary& o) const {
    return r.latency_avg == o.r.latency_avg && r.latency_p99 == o.r.latency_p99 &&
           r.latency_max == o.r.latency_max && r.accepted == o.r.accepted &&
           r.offered == o.r.offered && r.hops_avg == o.r.hops_avg &&
           r.packets_measured == o.r.packets_measured &&
           r.packets_delivered == o.r.packets_delivered &&
           r.flits_delivered == o.r.flits_delivered && end_cycle == o.end_cycle &&
           worm_hops == o.worm_hops;
  }
};

RunSummary traffic_on_machine(const TrafficParams& p, const MeshShape& mesh, const Timing& t) {
  Machine m(make_config(mesh, t));
  TrafficGenerator gen(p, mesh, 0);
  m.mesh().attach_traffic(&gen);
  m.run();
  CHECK(gen.finished());
  CHECK(gen.scoreboard().errors().empty());
  CHECK(gen.scoreboard().in_flight() == 0);
  return {gen.result(), m.now(), m.mesh().core().counters().worm_flit_hops};
}

// The same load on the bare network core (no SystemC).
struct GenSink : NetworkSink {
  TrafficGenerator* gen = nullptr;
  void on_eject(NodeId node, const Flit& f, std::uint64_t cycle) override { gen->on_eject(node, f, cycle); }
};
RunSummary traffic_on_core(const TrafficParams& p, const MeshShape& mesh, const Timing& t) {
  NetworkCore net(make_config(mesh, t));
  TrafficGenerator gen(p, mesh, 0);
  GenSink sink;
  sink.gen = &gen;
  net.set_sink(&sink);
  net.set_traffic(&gen);
  net.run_until_idle();
  CHECK(gen.finished());
  CHECK(gen.scoreboard().errors().empty());
  return {gen.result(), net.last_cycle(), net.counters().worm_flit_hops};
}

}  // namespace

TEST_CASE("traffic runs are deterministic: same seed same result, other seed differs", "[system][traffic][determinism]") {
  const MeshShape mesh{6, 6};
  const Timing t{10, 1, 1, 3};
  for (TrafficPattern pat : {TrafficPattern::Uniform, TrafficPattern::Hotspot, TrafficPattern::Transpose}) {
    INFO("pattern " << static_cast<int>(pat));
    const auto p1 = params(11, 0.1, 3, 3000, pat);
    auto p2 = p1;
    p2.seed = 12;
    const RunSummary a = traffic_on_machine(p1, mesh, t);
    const RunSummary b = traffic_on_machine(p1, mesh, t);
    const RunSummary c = traffic_on_machine(p2, mesh, t);
    CHECK(a == b);
    CHECK_FALSE(a == c);
    CHECK(a.r.latency_avg != c.r.latency_avg);
    // The SystemC clock only schedules the core: the same run without SystemC agrees.
    const RunSummary d = traffic_on_core(p1, mesh, t);
    CHECK(a.r.latency_avg == d.r.latency_avg);
    CHECK(a.r.packets_delivered == d.r.packets_delivered);
    CHECK(a.worm_hops == d.worm_hops);
    CHECK(a.r.latency_max == d.r.latency_max);
  }
}

TEST_CASE("traffic: zero-load packet latency matches the unicast formula", "[system][traffic][latency]") {
  // Very low load on a 2-node mesh: nearly every packet meets an empty network.
  const MeshShape mesh{2, 1};
  const Timing t{10, 3, 2, 9};
  auto p = params(5, 0.002, 2, 20000);
  p.warmup = 0;
  const RunSummary s = traffic_on_core(p, mesh, t);
  REQUIRE(s.r.packets_measured > 10);
  // Created at the injection cycle: 1 hop, 2 routers, one body flit; queueing only adds.
  const std::uint64_t zero_load = 1 * t.tp + 2 * t.trn + 1;
  CHECK(s.r.latency_avg >= static_cast<double>(zero_load));
  CHECK(s.r.latency_avg < static_cast<double>(zero_load) + 0.5);
  CHECK(s.r.hops_avg == Approx(1.0));
}

TEST_CASE("barrier measurements are deterministic", "[system][determinism][barrier]") {
  const MeshShape mesh{8, 8};
  const Timing t{100, 3, 2, 9};
  std::vector<std::uint64_t> lat;
  for (int rep = 0; rep < 2; ++rep) {
    Machine m(make_config(mesh, t));
    run_driver(m, [&] {
      for (std::uint64_t seed : {3, 4}) {
        for (BarrierScheme s : {BarrierScheme::BTM, BarrierScheme::CS}) {
          const Communicator c = m.groups().create(mesh, ref::random_members(mesh, 30, seed), s);
          lat.push_back(measure_barrier(m, c).latency_cycles);
          m.groups().free(c);
        }
      }
    });
  }
  REQUIRE(lat.size() == 8);
  for (std::size_t i = 0; i < 4; ++i) CHECK(lat[i] == lat[i + 4]);
}

TEST_CASE("traffic: the saturation flag does not depend on the warm-up's length", "[system][traffic][saturation]") {
  // 8x8 uniform, 1-flit packets, tp 1, trn 2: the network accepts at most about 0.398
  // flits/node/cycle. A long warm-up builds a large backlog beyond saturation; the flag
  // must see it grow all the same, and must not see growth below saturation.
  const ValidConfig cfg = make_config({8, 8}, Timing{1000, 1, 2, 30});
  for (const std::uint64_t warmup : {std::uint64_t{1000}, std::uint64_t{20000}}) {
    for (const double rate : {0.35, 0.45}) {
      INFO("warm-up " << warmup << ", rate " << rate);
      TrafficParams p = params(3, rate, 1, 5000);
      p.warmup = warmup;
      const TrafficExperimentResult r = run_traffic_experiment(cfg, p);
      CHECK(r.saturated == (rate > 0.4));
      if (r.saturated) {
        CHECK(r.traffic.accepted < 0.41);
        CHECK(r.cycles < 1 + warmup + p.cycles);  // stopped in the window
      } else {
        CHECK(r.traffic.accepted == Approx(rate).epsilon(0.02));
      }
    }
  }
}

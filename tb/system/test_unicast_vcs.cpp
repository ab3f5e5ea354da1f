// More than one VC for unicast worms (--vcs, docs/microarchitecture.md "Unicast VCs"): a
// worm head takes a free unicast VC of its output at every hop. What a user relies on:
// every flit still arrives once and in order, the zero-load latency does not change, and
// more VCs relieve head-of-line blocking.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "model/core/traffic.hpp"
#include "support/program_run.hpp"
#include "support/sim_helpers.hpp"
#include "sw/runtime/experiments/traffic_experiment.hpp"

using namespace meshsync;
using namespace meshsync::test;
using program_run::expect_error_naming;

namespace {

NetworkConfig with_vcs(MeshShape mesh, Timing t, std::uint32_t vcs, std::uint32_t allocation = 0) {
  NetworkConfig c = make_config(mesh, t);
  c.router.unicast_vcs = vcs;
  c.router.vc_allocation = allocation;
  return c;
}

TrafficParams load(double rate, std::uint16_t flits, std::uint64_t cycles) {
  TrafficParams p;
  p.rate = rate;
  p.flits = flits;
  p.warmup = 500;
  p.cycles = cycles;
  p.seed = 9;
  return p;
}

}  // namespace

TEST_CASE("unicast VCs: every flit arrives once and in order, at any VC count and allocation, near saturation",
          "[system][traffic][vcs]") {
  // The scoreboard (check_drained) fails the run on a flit lost, twice, out of order or at
  // the wrong node; the watchdog on a deadlock.
  for (const std::uint32_t vcs : {2u, 3u, 8u}) {
    for (const std::uint32_t allocation : {0u, 1u}) {
      INFO(vcs << " VCs, allocation " << allocation);
      // 0.49: close below saturation (about 0.52 here), where heads find every VC held
      // or without a credit.
      TrafficParams p = load(0.49, 5, 3000);
      p.stop_when_saturated = false;
      const TrafficExperimentResult r = run_traffic_experiment(with_vcs({6, 6}, Timing{10, 1, 2, 4}, vcs, allocation), p);
      CHECK_FALSE(r.drain_cut);
      CHECK(r.traffic.packets_measured > 2000);
      CHECK(r.traffic.accepted == Approx(0.49).epsilon(0.05));
    }
  }
}

TEST_CASE("unicast VCs: the zero-load latency is the formula's whatever the VC count", "[system][traffic][vcs]") {
  // A 2-node mesh at a very low load: nearly every packet meets an empty network.
  const Timing t{10, 3, 2, 9};
  for (const std::uint32_t vcs : {1u, 4u}) {
    INFO(vcs << " VCs");
    TrafficParams p = load(0.002, 2, 20000);
    p.warmup = 0;
    const TrafficExperimentResult r = run_traffic_experiment(with_vcs({2, 1}, t, vcs), p);
    REQUIRE(r.traffic.packets_measured > 10);
    const double zero_load = 1 * t.tp + 2 * t.trn + 1;
    CHECK(r.traffic.latency_avg >= zero_load);
    CHECK(r.traffic.latency_avg < zero_load + 0.5);
  }
}

TEST_CASE("unicast VCs: more VCs relieve head-of-line blocking (8x8 uniform, 4-flit packets)", "[system][traffic][vcs]") {
  // Offered 0.45 flits/node/cycle, beyond every configuration's saturation: what the
  // network accepts is its saturation throughput (measured: 0.318, 0.396, 0.406 with 1,
  // 2 and 4 VCs at the papers' timing).
  double accepted[3] = {};
  const std::uint32_t counts[3] = {1, 2, 4};
  for (int k = 0; k < 3; ++k) {
    const TrafficExperimentResult r =
        run_traffic_experiment(with_vcs({8, 8}, Timing{}, counts[k]), load(0.45, 4, 20000));
    CHECK(r.saturated);
    accepted[k] = r.traffic.accepted;
  }
  INFO("accepted " << accepted[0] << ", " << accepted[1] << ", " << accepted[2]);
  CHECK(accepted[1] > accepted[0] + 0.05);
  CHECK(accepted[2] > accepted[1]);
}

TEST_CASE("unicast VCs: multicasts, barriers and broadcasts beside them on an all-port NI, every flit checked",
          "[cli][vcs][multicast]") {
  // The soak checks every flit and release (docs/reliability.md; its multicasts need the
  // all-port NI); CP's multidestination worms stay on VC 0 while unicast worms take any
  // of the four.
  const program_run::Result soak =
      program_run::run({"soak", "--mesh", "6x6", "--cycles", "6000", "--vcs", "4", "--ni", "all-port", "--json"});
  REQUIRE(soak.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(soak.out);
  CHECK(j.at("passed") == true);
  CHECK(j.at("flits_delivered") == j.at("flits_injected"));
  const program_run::Result cp = program_run::run(
      {"multicast", "--mesh", "8x8", "--dests", "random:10", "--rate", "0.002", "--algo", "cp,dp", "--vcs", "4", "--json"});
  CHECK(cp.exit_code == 0);
}

TEST_CASE("unicast VCs: a VC count or allocation the routers cannot build is one line", "[cli][errors][vcs]") {
  expect_error_naming({"traffic", "--mesh", "4x4", "--vcs", "0"}, "--vcs");
  expect_error_naming({"traffic", "--mesh", "4x4", "--vcs", "9"}, "--vcs");
  expect_error_naming({"traffic", "--mesh", "4x4", "--vc-allocation", "fastest"}, "--vc-allocation");
#ifdef MESHSYNC_BIN_HAS_RTL
  // The RTL routers take unicast VCs as a Verilog parameter: a count no configuration was
  // built with is named in the refusal, and the mesh block injects on one VC only.
  expect_error_naming({"traffic", "--mesh", "4x4", "--vcs", "3", "--rtl", "all"}, "vcs 3");
  expect_error_naming({"traffic", "--mesh", "4x4", "--vcs", "2", "--lockstep", "mesh"}, "injects on one unicast VC");
#endif
}

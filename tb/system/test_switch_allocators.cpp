// The switch allocators (docs/microarchitecture.md, "Switch allocators"): the separable
// input-first one of the contract, and the two matchings BookSim2 users know, iSLIP and
// wavefront. What a user relies on: a lone packet's latency does not depend on the
// allocator, a matching lets an input send from another VC when the one its round robin
// would offer is blocked (more throughput with several unicast VCs), every flit still
// arrives once, and a run the RTL cannot build is refused in one line.
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

NetworkConfig with_allocator(MeshShape mesh, Timing t, std::uint32_t allocator, std::uint32_t vcs,
                             std::uint32_t iterations = 1) {
  NetworkConfig c = make_config(mesh, t);
  c.router.switch_allocator = allocator;
  c.router.islip_iterations = iterations;
  c.router.unicast_vcs = vcs;
  return c;
}

}  // namespace

TEST_CASE("switch allocators: a lone packet's latency is the zero-load formula under each", "[system][traffic][allocator]") {
  const Timing t{10, 3, 2, 9};
  for (std::uint32_t allocator : {0u, 1u, 2u}) {
    INFO("allocator " << allocator);
    TrafficParams p;
    p.rate = 0.002;
    p.flits = 2;
    p.warmup = 0;
    p.cycles = 20000;
    const TrafficExperimentResult r = run_traffic_experiment(with_allocator({2, 1}, t, allocator, 2), p);
    REQUIRE(r.traffic.packets_measured > 10);
    const double zero_load = 1 * t.tp + 2 * t.trn + 1;
    CHECK(r.traffic.latency_avg >= zero_load);
    CHECK(r.traffic.latency_avg < zero_load + 0.5);
  }
}

TEST_CASE("switch allocators: a matching accepts more than the separable allocator with four VCs",
          "[system][traffic][allocator]") {
  // 8x8 uniform, 4-flit packets, BookSim2's lean hop (tp 1, trn 2), offered beyond
  // saturation: what the network accepts is its saturation throughput. With four unicast
  // VCs an input's round robin often offers a VC whose output another input wins, while
  // a flit of another VC could have gone elsewhere; a matching finds it.
  TrafficParams p;
  p.rate = 0.6;
  p.flits = 4;
  p.warmup = 2000;
  p.cycles = 10000;
  const Timing hop{1000, 1, 2, 30};
  const double separable = run_traffic_experiment(with_allocator({8, 8}, hop, 0, 4), p).traffic.accepted;
  const double islip = run_traffic_experiment(with_allocator({8, 8}, hop, 1, 4), p).traffic.accepted;
  const double islip2 = run_traffic_experiment(with_allocator({8, 8}, hop, 1, 4, 2), p).traffic.accepted;
  const double wavefront = run_traffic_experiment(with_allocator({8, 8}, hop, 2, 4), p).traffic.accepted;
  INFO("accepted: separable " << separable << ", iSLIP " << islip << ", iSLIP-2 " << islip2 << ", wavefront "
                              << wavefront);
  // Measured (session 25): separable 0.399, iSLIP 0.403, iSLIP with 2 iterations 0.417
  // (4 iterations: the same), wavefront 0.434. One iSLIP iteration is about the separable
  // allocator, as BookSim2's users find; its second iteration and the wavefront's full
  // sweep are what find the other VC's output.
  CHECK(islip >= separable * 0.99);
  CHECK(islip2 > separable * 1.03);
  CHECK(wavefront > separable * 1.05);
}

TEST_CASE("switch allocators: every flit once under load, barriers and multicasts beside", "[system][allocator]") {
  for (const char* allocator : {"islip", "wavefront"}) {
    INFO(allocator);
    const program_run::Result soak = program_run::run({"soak", "--mesh", "6x6", "--cycles", "6000", "--vcs", "3",
                                                       "--switch-allocator", allocator, "--json"});
    REQUIRE(soak.exit_code == 0);
    const nlohmann::json j = nlohmann::json::parse(soak.out);
    CHECK(j.at("passed") == true);
    CHECK(j.at("flits_delivered") == j.at("flits_injected"));
    const program_run::Result all_port = program_run::run({"soak", "--mesh", "6x6", "--cycles", "4000", "--ni",
                                                           "all-port", "--switch-allocator", allocator, "--json"});
    REQUIRE(all_port.exit_code == 0);
    CHECK(nlohmann::json::parse(all_port.out).at("passed") == true);
    const program_run::Result mc = program_run::run({"multicast", "--mesh", "8x8", "--dests", "random:10", "--rate",
                                                     "0.002", "--algo", "cp,dp,mp", "--switch-allocator", allocator,
                                                     "--json"});
    CHECK(mc.exit_code == 0);
  }
}

TEST_CASE("switch allocators: a bad name or iteration count, or an RTL run, is one line", "[cli][errors][allocator]") {
  expect_error_naming({"traffic", "--mesh", "4x4", "--switch-allocator", "islp"}, "did you mean islip?");
  expect_error_naming({"traffic", "--mesh", "4x4", "--islip-iterations", "5"}, "--islip-iterations");
#ifdef MESHSYNC_BIN_HAS_RTL
  expect_error_naming({"traffic", "--mesh", "4x4", "--switch-allocator", "wavefront", "--rtl", "all"},
                      "no --switch-allocator but separable: --switch-allocator wavefront runs on the model only");
#endif
}

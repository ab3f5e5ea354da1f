// The allocation pipeline (docs/microarchitecture.md, "Allocation pipeline"): a worm head
// runs its routing and VC allocation stages once it is at the front of its VC, and the VC
// idles meanwhile. What a user relies on: the zero-load hop is tp + trn + the stages,
// the stages cost throughput as BookSim2's stock router's do, and the presets set what
// they say while an option given beside one wins.
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

NetworkConfig with_stages(MeshShape mesh, Timing t, std::uint32_t routing, std::uint32_t va) {
  NetworkConfig c = make_config(mesh, t);
  c.router.routing_stage = routing;
  c.router.va_stage = va;
  return c;
}

}  // namespace

TEST_CASE("pipeline: the zero-load hop is tp + trn + the head stages", "[system][traffic][pipeline]") {
  // A 2-node mesh at a very low load: one hop, two routers, a 2-flit worm.
  const Timing t{10, 3, 2, 9};
  for (const auto& [routing, va] : {std::pair{0u, 0u}, std::pair{1u, 0u}, std::pair{0u, 1u}, std::pair{1u, 1u},
                                    std::pair{3u, 2u}}) {
    INFO("routing stage " << routing << ", VC allocation stage " << va);
    TrafficParams p;
    p.rate = 0.002;
    p.flits = 2;
    p.warmup = 0;
    p.cycles = 20000;
    const TrafficExperimentResult r = run_traffic_experiment(with_stages({2, 1}, t, routing, va), p);
    REQUIRE(r.traffic.packets_measured > 10);
    const double zero_load = 1 * t.tp + 2 * (t.trn + routing + va) + 1;
    CHECK(r.traffic.latency_avg >= zero_load);
    CHECK(r.traffic.latency_avg < zero_load + 0.5);
  }
}

TEST_CASE("pipeline: head stages idle the VC between packets (8x8 uniform, 1-flit packets)",
          "[system][traffic][pipeline]") {
  // BookSim2 measured 0.404 flits/node/cycle for its lean pipeline and 0.147 for its stock
  // one (../shared/booksim2/README.md): the stock router serves a VC's packets a few cycles
  // apart. Offered 0.5, beyond both: what the network accepts is its saturation throughput.
  TrafficParams p;
  p.rate = 0.5;
  p.warmup = 1000;
  p.cycles = 10000;
  const Timing hop{1000, 1, 2, 30};
  const double lean = run_traffic_experiment(with_stages({8, 8}, hop, 0, 0), p).traffic.accepted;
  const double stock = run_traffic_experiment(with_stages({8, 8}, hop, 1, 1), p).traffic.accepted;
  INFO("accepted: lean " << lean << ", stock " << stock);
  CHECK(lean > 0.35);
  CHECK(stock < 0.6 * lean);
}

TEST_CASE("pipeline: a preset sets its values, an option beside it wins, a bad name is one line",
          "[cli][pipeline]") {
  const auto router_of = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"traffic", "--mesh", "4x4", "--rate", "0.05", "--cycles", "200", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const program_run::Result r = program_run::run(args);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json stock = router_of({"--pipeline", "booksim-stock"});
  CHECK(stock["timing"]["tp"] == 1);
  CHECK(stock["timing"]["trn"] == 2);
  CHECK(stock["router"]["routing_stage"] == 1);
  CHECK(stock["router"]["va_stage"] == 1);
  const nlohmann::json mine = router_of({"--pipeline", "booksim-stock", "--trn", "4", "--va-stage", "0"});
  CHECK(mine["timing"]["tp"] == 1);
  CHECK(mine["timing"]["trn"] == 4);
  CHECK(mine["router"]["routing_stage"] == 1);
  CHECK(mine["router"]["va_stage"] == 0);
  const nlohmann::json papers = router_of({"--pipeline", "meshsync", "--trn", "3"});
  CHECK(papers["timing"]["trn"] == 3);
  CHECK(papers["router"]["routing_stage"] == 0);
  expect_error_naming({"traffic", "--mesh", "4x4", "--pipeline", "booksim-stok"}, "did you mean booksim-stock?");
  expect_error_naming({"traffic", "--mesh", "4x4", "--routing-stage", "17"}, "--routing-stage");
#ifdef MESHSYNC_BIN_HAS_RTL
  // The RTL has the stages as Verilog parameters: BookSim2's stock pipeline is built with
  // four unicast VCs (configuration stock-vcs4), and a run without them names the mismatch.
  expect_error_naming({"traffic", "--mesh", "4x4", "--pipeline", "booksim-stock", "--rtl", "all"}, "vcs 1");
#endif
}

// Single-router lockstep: the C++ RouterCore and the Verilated RTL under identical random
// stimulus, compared every cycle (random_bench.hpp says what the stimulus covers).
#include <catch2/catch.hpp>

#include "random_bench.hpp"

using namespace meshsync;
using namespace meshsync::rtl;

namespace {

BenchResult run(const std::string& config, BenchOptions opt) {
  BenchResult r = run_random_bench(make_rtl_router(config), opt);
  INFO("configuration " << config << " seed " << opt.seed << ": " << r.stats.summary());
  INFO("first difference: " << r.mismatch);
  CHECK(r.ok);
  WARN("lockstep " << config << ": " << r.stats.summary());
  return r;
}

}  // namespace

TEST_CASE("lockstep: the design point (BufferDepth 4 / tree VC 10 / 4 registers of 4 children / trn 5 / trm 30)",
          "[lockstep]") {
  BenchOptions opt;
  opt.cycles = 150000;
  opt.seed = 11;
  const BenchResult r = run("default", opt);
  CHECK(r.stats.epochs > 50);
  CHECK(r.stats.programs_failed > 0);
  CHECK(r.stats.early_frees > 0);
  CHECK(r.stats.forced_first_hops > 100);
}

TEST_CASE("lockstep: the base router (no path worms, no tree VC, no registers)", "[lockstep]") {
  // The first row of scripts/synth's per-feature table: unicast worms and sync messages.
  BenchOptions opt;
  opt.cycles = 50000;
  opt.seed = 18;
  opt.load = 0.8;
  const BenchResult r = run("base", opt);
  CHECK(r.stats.multicast_worms == 0);
  CHECK(r.stats.tree_worms == 0);
  CHECK(r.stats.worms > 1000);
}

TEST_CASE("lockstep: the simulator's default router (BufferDepth 16 / tree VC 66 / 8 children)", "[lockstep]") {
  // What --rtl co-simulates at default parameters (configuration `model`).
  BenchOptions opt;
  opt.cycles = 50000;
  opt.seed = 17;
  const BenchResult r = run("model", opt);
  CHECK(r.stats.epochs > 10);
  CHECK(r.stats.reduction_epochs > 5);  // vectors folded in the lanes
}

TEST_CASE("lockstep: small buffers / short delays / credits used at once", "[lockstep]") {
  BenchOptions opt;
  opt.cycles = 100000;
  opt.seed = 12;
  opt.credit_delay = 0;
  opt.link_delay = 1;
  opt.load = 0.8;
  opt.worm_rate = 0.08;
  const BenchResult r = run("small", opt);
  CHECK(r.stats.epochs > 50);
}

TEST_CASE("lockstep: no barrier registers / trn 1 / corner router", "[lockstep]") {
  BenchOptions opt;
  opt.cycles = 50000;
  opt.seed = 13;
  opt.where = Coord{0, 7};  // a corner router
  const BenchResult r = run("noregs", opt);
  CHECK(r.stats.programs_ok == 0);
}

TEST_CASE("lockstep: 16 registers / 16x16 mesh", "[lockstep]") {
  BenchOptions opt;
  opt.cycles = 100000;
  opt.seed = 14;
  opt.players = 12;
  opt.where = Coord{9, 6};
  const BenchResult r = run("regs16", opt);
  CHECK(r.stats.epochs > 50);
}

TEST_CASE("lockstep: default router / heavy sync traffic / few groups", "[lockstep]") {
  BenchOptions opt;
  opt.cycles = 50000;
  opt.seed = 15;
  opt.players = 2;
  opt.sync_rate = 0.08;
  // Reduction worms at this rate would fill the 2-flit sync VCs and starve the groups.
  opt.reduction_share = 0.05;
  opt.worm_rate = 0.02;
  opt.load = 0.9;
  opt.where = Coord{7, 0};  // a corner
  const BenchResult r = run("default", opt);
  CHECK(r.stats.epochs > 10);
}

TEST_CASE("lockstep: the checker finds a broken output arbiter", "[lockstep][broken]") {
  // The broken router (meshsync_rtl_with_broken_arbiter, rtl/sources.cmake): its output
  // arbiter skips input -X after granting +X.
  BenchOptions opt;
  opt.cycles = 40000;
  opt.seed = 11;
  const BenchResult r = run_random_bench(make_rtl_router("broken"), opt);
  REQUIRE_FALSE(r.ok);
  CHECK(r.mismatch.find("cycle ") == 0);
  CHECK(r.mismatch.find("expected") != std::string::npos);
  CHECK(r.mismatch.find("actual") != std::string::npos);
  WARN("broken arbiter detected after " << r.stats.cycles << " cycles: " << r.mismatch);
}

TEST_CASE("lockstep: the checker finds broken absorb-and-forward of multidestination worms",
          "[lockstep][broken][multicast]") {
  // Mutants of tb/rtl/CMakeLists.txt: the forwarded worm's head bit is lost; a link won
  // by a flit that then lost Local still moves its round-robin pointer; the Local input
  // ignores a head's forced first hop (MP).
  for (const char* mutant : {"forward-no-head", "withdrawn-grant", "no-forced-hop"}) {
    BenchOptions opt;
    opt.cycles = 100000;
    opt.seed = 16;
    opt.mcast_rate = 0.05;
    opt.load = 0.8;
    const BenchResult r = run_random_bench(make_rtl_router(mutant), opt);
    INFO(mutant << ": " << r.stats.summary());
    REQUIRE_FALSE(r.ok);
    CHECK(r.mismatch.find("cycle ") == 0);
    WARN("mutant " << mutant << " found after " << r.stats.cycles << " cycles: " << r.mismatch);
  }
}

TEST_CASE("lockstep: all-port NI (injection channels 1-3, an ejection output per link)",
          "[lockstep][multicast]") {
  BenchOptions opt;
  opt.cycles = 100000;
  opt.seed = 17;
  opt.mcast_rate = 0.04;
  opt.load = 0.8;
  const BenchResult r = run("allport", opt);
  CHECK(r.stats.channel_flits_in > 10000);
  CHECK(r.stats.channel_flits_out > 10000);
  CHECK(r.stats.absorbed > 500);
  CHECK(r.stats.forced_first_hops > 100);
  CHECK(r.stats.epochs > 50);
  CHECK(r.stats.reduction_epochs > 20);
}

TEST_CASE("lockstep: tree worms (claims, copies to children, drops) beside every other class",
          "[lockstep][tree]") {
  for (const char* config : {"default", "allport", "small"}) {
    BenchOptions opt;
    opt.cycles = 60000;
    opt.seed = 19;
    opt.tree_rate = 0.03;
    opt.load = 0.8;
    const BenchResult r = run(config, opt);
    CHECK(r.stats.tree_worms > 1000);
    CHECK(r.stats.tree_here > 500);
    // Copies to children and to the NI: more tree flits out than came in on one path.
    CHECK(r.stats.tree_flits_out > 10000);
  }
}

TEST_CASE("lockstep: BookSim2's stock pipeline with four unicast VCs (VC allocation, head stages)",
          "[lockstep][vcs]") {
  // Configuration stock-vcs4: round-robin VC allocation at every output, a routing and a
  // VC allocation stage before each worm head's Trn of 2 (docs/microarchitecture.md,
  // "Unicast VCs" and "Allocation pipeline").
  BenchOptions opt;
  opt.cycles = 60000;
  opt.seed = 23;
  opt.worm_rate = 0.08;
  opt.load = 0.8;
  const BenchResult r = run("stock-vcs4", opt);
  CHECK(r.stats.worms > 5000);
  CHECK(r.stats.lane_flits_out > 5000);
  CHECK(r.stats.epochs > 10);
}

TEST_CASE("lockstep: eight unicast VCs, most-credits allocation, all-port NI, stages of 1 + 2",
          "[lockstep][vcs]") {
  // Configuration vcs8: 12 VCs (4-bit VC numbers), the design point's 4-flit buffers.
  BenchOptions opt;
  opt.cycles = 60000;
  opt.seed = 29;
  opt.worm_rate = 0.08;
  opt.load = 0.8;
  const BenchResult r = run("vcs8", opt);
  CHECK(r.stats.worms > 5000);
  CHECK(r.stats.lane_flits_out > 5000);
  CHECK(r.stats.channel_flits_in > 1000);
  CHECK(r.stats.epochs > 10);
}

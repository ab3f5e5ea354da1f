// The RTL router in the mesh (Verilator's C++ model): lockstep of every router of a 4x4 mesh
// under random unicast traffic, multidestination worms and concurrent barriers, an all-RTL 8x8 mesh giving the
// model's latencies, and a broken RTL copy that lockstep must catch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "Vrouter_cosim_broken.h"
#include "model/core/packet.hpp"
#include "model/cosim/rtl_mesh.hpp"
#include "support/cosim_workloads.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

// Every router of `m` an RTL router (when `on`); the RtlMesh must outlive the run.
std::unique_ptr<rtl::RtlMesh> all_rtl(Machine& m, bool on) {
  if (!on) return nullptr;
  rtl::CosimOptions opt;
  opt.rtl = ref::all_nodes(m.mesh().mesh());
  return std::make_unique<rtl::RtlMesh>("rtl", m.mesh().core(), opt);
}

struct MixedRun : MixedCounts {
  std::uint64_t router_cycles = 0;  // RTL router cycles evaluated and compared
};

// The mixed workload (support/cosim_workloads.hpp) with every router in lockstep.
MixedRun run_mixed(const MeshShape& mesh, std::uint64_t traffic_cycles, const std::string& config,
                   std::uint64_t seed, std::uint32_t ni_ports = 1, double rate = 0.04) {
  NetworkConfig cfg = make_config(mesh);
  // A named configuration's router, or the model's defaults (which `model` is built as).
  for (const rtl::RtlBuild& b : rtl::rtl_builds())
    if (!config.empty() && b.params.name == config) cfg = rtl::with_router(cfg, b.params);
  // A short start-up and links; the router delays are the configuration's.
  cfg.timing.ts = 40;
  cfg.timing.tp = 2;
  cfg.router.ni_ports = ni_ports;
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.lockstep = ref::all_nodes(mesh);
  opt.config = config;
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  MixedWorkload w;
  w.cycles = traffic_cycles;
  w.seed = seed;
  w.rate = rate;
  MixedRun out;
  static_cast<MixedCounts&>(out) = run_mixed_workload(m, w);
  out.router_cycles = rtl.cycles_compared();
  return out;
}

}  // namespace

TEST_CASE("cosim: every router of a 4x4 mesh in lockstep for 100,000 cycles of traffic, multicasts and barriers",
          "[cosim][lockstep]") {
  const MixedRun r = run_mixed(MeshShape{4, 4}, 100000, "", 1);
  INFO(r << ", router-cycles compared " << r.router_cycles);
  CHECK(r.cycles >= 100000);
  CHECK(r.multicast_worms > 300);
  CHECK(r.packets > 10000);
  CHECK(r.barriers > 3 * 250);
  // A router is evaluated and compared in every cycle where it holds a flit or receives
  // an input; cycles where both the core and the RTL are idle are skipped.
  CHECK(r.router_cycles > 16 * r.cycles / 3);
}

TEST_CASE("cosim: a 4x4 mesh of all-port RTL routers in lockstep: multicast worms on four injection channels",
          "[cosim][lockstep][multicast]") {
  // Configuration allport: a step's worms enter on injection channels 0-3 and every
  // input link ejects on its own output.
  const MixedRun r = run_mixed(MeshShape{4, 4}, 50000, "", 2, 4);
  INFO(r << ", router-cycles compared " << r.router_cycles);
  CHECK(r.cycles >= 50000);
  CHECK(r.multicast_worms > 150);
  CHECK(r.packets > 5000);
  CHECK(r.router_cycles > 16 * r.cycles / 3);
}

TEST_CASE("cosim: a 4x4 mesh of BookSim2-stock RTL routers with four unicast VCs in lockstep",
          "[cosim][lockstep][vcs]") {
  // Configuration stock-vcs4: VC allocation at every hop and at injection, a routing and a
  // VC allocation stage before each worm head's Trn of 2. Traffic at 0.12 flits/node/cycle
  // keeps several worms contending for each output.
  const MixedRun r = run_mixed(MeshShape{4, 4}, 30000, "stock-vcs4", 3, 1, 0.12);
  INFO(r << ", router-cycles compared " << r.router_cycles);
  CHECK(r.cycles >= 30000);
  CHECK(r.multicast_worms > 80);
  CHECK(r.packets > 10000);
  CHECK(r.router_cycles > 16 * r.cycles / 3);
}

TEST_CASE("cosim: an 8x8 mesh of RTL routers gives the model's barrier latencies", "[cosim]") {
  const MeshShape mesh{8, 8};
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS}) {
    INFO("scheme " << scheme_name(scheme));
    const std::uint64_t model = complete_barrier_latency(mesh, scheme, [](Machine& m) { return all_rtl(m, false); });
    CHECK(model == (scheme == BarrierScheme::BTM ? 2460u : 2620u));
    CHECK(complete_barrier_latency(mesh, scheme, [](Machine& m) { return all_rtl(m, true); }) == model);
  }
}

TEST_CASE("cosim: an 8x8 mesh of RTL routers gives the model's traffic latencies", "[cosim]") {
  const MeshShape mesh{8, 8};
  check_same_traffic(uniform_traffic(mesh, [](Machine& m) { return all_rtl(m, false); }),
                     uniform_traffic(mesh, [](Machine& m) { return all_rtl(m, true); }));
}

TEST_CASE("cosim: lockstep stops at the first difference of a broken RTL copy", "[cosim][lockstep]") {
  // rtl/sources.cmake meshsync_rtl_with_broken_arbiter: an output arbiter that skips
  // input -X after granting +X.
  static const bool added = [] {
    // Built as the Verilog defaults, the design point (tb/cosim/CMakeLists.txt).
    rtl::RtlParams p = rtl::verilog_defaults();
    p.mesh_w = p.mesh_h = flit_format::kMaxMeshSide;
    p.name = "broken";
    rtl::add_rtl_build({p, [p](VerilatedContext* ctx, const std::string& n) -> std::unique_ptr<rtl::RtlRouter> {
                          return std::make_unique<rtl::VerilatedRouter<Vrouter_cosim_broken>>(p, ctx, n);
                        }});
    return true;
  }();
  REQUIRE(added);
  try {
    run_mixed(MeshShape{4, 4}, 20000, "broken", 2);
    FAIL("lockstep did not notice the broken arbiter");
  } catch (const SimulationError& e) {
    check_first_difference(e.what(), "router (");
  }
}

TEST_CASE("cosim: a run whose parameters no RTL build has is refused with one line", "[cosim]") {
  NetworkConfig cfg = make_config(MeshShape{4, 4});
  cfg.timing.trm = 31;
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.rtl = {0};
  try {
    rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
    FAIL("accepted");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("trm 31") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
  }
}

TEST_CASE("cosim: a protocol violation stops a lockstep run, raised by the model and the RTL alike",
          "[cosim][lockstep][error]") {
  // One slot arriving twice in one epoch at a lockstep router's member register: both the
  // core and the RTL must raise it in the same cycle, and the run stops there (it used to
  // count as agreement and go on).
  const MeshShape mesh{4, 4};
  Machine m(make_config(mesh));
  rtl::CosimOptions opt;
  opt.lockstep = {mesh.id({1, 1})};
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  const NodeId self = mesh.id({1, 1}), child = mesh.id({2, 1});
  BarrierRegisterSetup s;
  s.gid = 9;
  s.children = {{child, Route::XY}};
  try {
    run_driver(m, [&] {
      bool ok = false;
      m.mesh().program_register(self, s, [&](bool r) { ok = r; });
      wait_cycles(3);
      REQUIRE(ok);
      const Flit twice = make_sync(SyncType::Arrive, 9, child, self, Route::XY, 1);
      m.mesh().inject(child, twice, m.mesh().now_cycle() + 1);
      m.mesh().inject(child, twice, m.mesh().now_cycle() + 2);
      wait_cycles(200);
    });
    FAIL("the run went on after the protocol violation");
  } catch (const SimulationError& e) {
    check_violation_in_both(e.what(), "router (1,1)", "arrived twice in one epoch");
  }
}

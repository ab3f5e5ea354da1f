// The whole mesh as one Verilated block (rtl/meshsync_mesh.sv, --rtl mesh): the 8x8 block
// gives the model's barrier and traffic latencies, its boundary agrees with the model's
// mesh in lockstep under traffic, multidestination worms and barriers, and a broken copy
// is caught.
#include <catch2/catch.hpp>

#include <memory>

#include "Vmesh_broken.h"
#include "model/cosim/rtl_mesh_block.hpp"
#include "support/cosim_workloads.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

std::unique_ptr<rtl::RtlMeshBlock> mesh_block(Machine& m, bool on) {
  if (!on) return nullptr;
  return std::make_unique<rtl::RtlMeshBlock>(m.mesh().core(), false);
}

struct BlockRun : MixedCounts {
  std::uint64_t compared = 0;  // cycles the block ran, its boundary compared
};

// The mixed workload (support/cosim_workloads.hpp), the block in lockstep with the
// model's mesh.
BlockRun run_lockstep(const MeshShape& mesh, std::uint64_t traffic_cycles, double rate,
                      const std::string& config, std::uint64_t seed) {
  NetworkConfig cfg = make_config(mesh);
  cfg.timing.ts = 40;  // the block's links are built for tp = 5, trn = 5, trm = 30
  Machine m(cfg);
  rtl::RtlMeshBlock block(m.mesh().core(), true, config);
  MixedWorkload w;
  w.cycles = traffic_cycles;
  w.rate = rate;
  w.seed = seed;
  w.epoch_cycles = 600;
  w.max_wait = 300;
  BlockRun out;
  static_cast<MixedCounts&>(out) = run_mixed_workload(m, w);
  out.compared = block.cycles_compared();
  return out;
}

}  // namespace

TEST_CASE("cosim: the 8x8 RTL mesh block gives the model's barrier latencies", "[cosim][mesh]") {
  const MeshShape mesh{8, 8};
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS}) {
    INFO("scheme " << scheme_name(scheme));
    const std::uint64_t model = complete_barrier_latency(mesh, scheme, [](Machine& m) { return mesh_block(m, false); });
    CHECK(model == (scheme == BarrierScheme::BTM ? 2460u : 2620u));
    CHECK(complete_barrier_latency(mesh, scheme, [](Machine& m) { return mesh_block(m, true); }) == model);
  }
}

TEST_CASE("cosim: the 8x8 RTL mesh block gives the model's traffic latencies", "[cosim][mesh]") {
  const MeshShape mesh{8, 8};
  check_same_traffic(uniform_traffic(mesh, [](Machine& m) { return mesh_block(m, false); }),
                     uniform_traffic(mesh, [](Machine& m) { return mesh_block(m, true); }));
}

TEST_CASE("cosim: the 8x8 mesh block in lockstep with the model under traffic, multicasts and barriers",
          "[cosim][mesh][lockstep]") {
  const BlockRun r = run_lockstep(MeshShape{8, 8}, 3000, 0.04, "", 1);
  INFO("cycles " << r.cycles << ", block cycles compared " << r.compared << ", packets " << r.packets
                 << ", barriers " << r.barriers << ", multicast worms " << r.multicast_worms);
  CHECK(r.cycles >= 3000);
  CHECK(r.multicast_worms > 10);
  CHECK(r.packets > 1000);
  CHECK(r.barriers > 300);
  CHECK(r.compared > r.cycles / 2);
}

TEST_CASE("cosim: mesh lockstep stops at the first difference of a broken RTL mesh", "[cosim][mesh][lockstep]") {
  // tb/rtl/broken: an output arbiter that skips input -X after granting +X, in every
  // router of a 3x2 block (the middle column has both).
  static const bool added = [] {
    rtl::MeshParams p;
    p.router = rtl::parse_rtl_params("broken", "MeshW=3 MeshH=2");
    p.tp = 5;
    rtl::add_mesh_build({p, [p]() -> std::unique_ptr<rtl::MeshBlock> {
                           return std::make_unique<rtl::VerilatedMeshBlock<Vmesh_broken>>(p);
                         }});
    return true;
  }();
  REQUIRE(added);
  try {
    // Heavy load: the skipped turn shows only where +X and -X compete for one output.
    run_lockstep(MeshShape{3, 2}, 20000, 0.3, "broken", 2);
    FAIL("mesh lockstep did not notice the broken arbiter");
  } catch (const SimulationError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.rfind("lockstep: cycle ", 0) == 0);
    CHECK(what.find("node (") != std::string::npos);
    CHECK(what.find("expected") != std::string::npos);
    CHECK(what.find("actual") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
  }
}

TEST_CASE("cosim: a run the mesh block was not built for is refused with one line", "[cosim][mesh]") {
  for (const auto& [mesh, tp] : {std::pair{MeshShape{6, 6}, 5u}, std::pair{MeshShape{8, 8}, 3u}}) {
    NetworkConfig cfg = make_config(mesh);
    cfg.timing.tp = tp;
    Machine m(cfg);
    try {
      rtl::RtlMeshBlock block(m.mesh().core(), false);
      FAIL("accepted");
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.rfind("no Verilated RTL mesh matches this run", 0) == 0);
      CHECK(what.find("mesh8x8 (8x8, tp 5") != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
    }
  }
}

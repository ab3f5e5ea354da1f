// The 8x8 mesh as one Verilated block (rtl/meshsync_mesh.sv, --rtl mesh; built with
// -DMESHSYNC_RTL_MESH=ON): it gives the model's barrier and traffic latencies, and its
// boundary agrees with the model's mesh in lockstep under traffic, multidestination worms
// and barriers. test_cosim_block.cpp runs small blocks in every build.
#include <catch2/catch.hpp>

#include <memory>

#include "model/cosim/rtl_mesh_block.hpp"
#include "support/cosim_workloads.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

std::unique_ptr<rtl::RtlMeshBlock> mesh_block(Machine& m, bool on) {
  if (!on) return nullptr;
  return std::make_unique<rtl::RtlMeshBlock>(m.mesh().core(), false);
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
  const BlockRun r = run_block_lockstep(MeshShape{8, 8}, 3000, 0.04, "", 1);
  INFO(r << ", block cycles compared " << r.compared);
  CHECK(r.cycles >= 3000);
  CHECK(r.multicast_worms > 10);
  CHECK(r.packets > 1000);
  CHECK(r.barriers > 300);
  CHECK(r.compared > r.cycles / 2);
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

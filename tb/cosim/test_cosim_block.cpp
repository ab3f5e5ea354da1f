// Small meshes as one Verilated block (rtl/meshsync_mesh.sv), built in every
// configuration so that the block's driver (model/cosim/mesh_block.hpp) and boundary
// decoder are tested in CI: the 8x8 block of --rtl mesh costs 8 minutes to compile and
// is built only on request (test_cosim_mesh.cpp). A 3x2 block of design-point routers agrees
// with the model's mesh in lockstep, and one with a broken arbiter is caught.
#include <catch2/catch.hpp>

#include <memory>

#include "Vmesh_broken.h"
#include "Vmesh_small.h"
#include "model/cosim/rtl_mesh_block.hpp"
#include "support/cosim_workloads.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

// Registers the 3x2 block (tp = 5) Verilated as `V` under configuration `name`.
template <class V>
bool add_block(const std::string& name) {
  rtl::MeshParams p;
  p.router = rtl::parse_rtl_params(name, "MeshW=3 MeshH=2");
  p.tp = 5;
  rtl::add_mesh_build({p, [p]() -> std::unique_ptr<rtl::MeshBlock> {
                         return std::make_unique<rtl::VerilatedMeshBlock<V>>(p);
                       }});
  return true;
}

// The 3x2 block of design-point routers (meshsync_router.sv's defaults) as configuration "small3x2", registered once.
bool small_block_added() {
  static const bool added = add_block<Vmesh_small>("small3x2");
  return added;
}

}  // namespace

TEST_CASE("cosim: a 3x2 mesh block in lockstep with the model under traffic, multicasts and barriers",
          "[cosim][block][lockstep]") {
  REQUIRE(small_block_added());
  const rtl::RtlParams design_point = rtl::verilog_defaults();
  const BlockRun r = run_block_lockstep(MeshShape{3, 2}, 20000, 0.1, "small3x2", 3, &design_point);
  INFO(r << ", block cycles compared " << r.compared);
  CHECK(r.cycles >= 20000);
  CHECK(r.multicast_worms > 60);
  CHECK(r.packets > 2000);
  CHECK(r.barriers > 200);
  CHECK(r.compared > r.cycles / 2);
}

TEST_CASE("cosim: mesh lockstep stops at the first difference of a broken RTL mesh", "[cosim][block][lockstep]") {
  // rtl/sources.cmake meshsync_rtl_with_broken_arbiter: an output arbiter that skips
  // input -X after granting +X, in every router of a 3x2 block (the middle column has
  // both).
  static const bool added = add_block<Vmesh_broken>("broken");
  REQUIRE(added);
  try {
    // Heavy load: the skipped turn shows only where +X and -X compete for one output.
    const rtl::RtlParams design_point = rtl::verilog_defaults();
    run_block_lockstep(MeshShape{3, 2}, 20000, 0.3, "broken", 2, &design_point);
    FAIL("mesh lockstep did not notice the broken arbiter");
  } catch (const SimulationError& e) {
    check_first_difference(e.what(), "node (");
  }
}


TEST_CASE("cosim: the mesh block says it carries no tree worms, which bcast and soak refuse up front",
          "[cosim][block]") {
  REQUIRE(small_block_added());
  const NetworkConfig cfg = rtl::with_router(make_config(MeshShape{3, 2}), rtl::verilog_defaults());
  Machine m(cfg);
  CHECK(m.mesh().core().carries_tree_worms());
  rtl::RtlMeshBlock block(m.mesh().core(), false, "small3x2");
  CHECK_FALSE(m.mesh().core().carries_tree_worms());
}

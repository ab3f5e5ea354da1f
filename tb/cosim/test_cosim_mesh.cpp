// The whole mesh as one Verilated block (rtl/meshsync_mesh.sv, --rtl mesh): the 8x8 block
// gives the model's barrier and traffic latencies, its boundary agrees with the model's
// mesh in lockstep under traffic, multidestination worms and barriers, and a broken copy
// is caught.
#include <catch2/catch.hpp>

#include <memory>

#include "Vmesh_broken.h"
#include "model/core/random.hpp"
#include "model/core/traffic.hpp"
#include "model/cosim/rtl_mesh_block.hpp"
#include "support/multicast_worms.hpp"
#include "support/sim_helpers.hpp"
#include "sw/runtime/communicator.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

std::vector<NodeId> all_nodes(const MeshShape& m) {
  std::vector<NodeId> v;
  for (int n = 0; n < m.nodes(); ++n) v.push_back(static_cast<NodeId>(n));
  return v;
}

std::unique_ptr<rtl::RtlMeshBlock> mesh_block(Machine& m, bool on) {
  if (!on) return nullptr;
  return std::make_unique<rtl::RtlMeshBlock>(m.mesh().core(), false);
}

struct BlockRun {
  std::uint64_t cycles = 0;
  std::uint64_t compared = 0;  // cycles the block ran, its boundary compared
  std::uint64_t packets = 0;
  std::uint64_t barriers = 0;
  std::uint64_t multicast_worms = 0;
};

// Random unicast traffic, multidestination worms of all four algorithms and three
// communicators (two BTM, one CS) running barriers at random times while the traffic
// runs, the block in lockstep with the model's mesh.
BlockRun run_lockstep(const MeshShape& mesh, std::uint64_t traffic_cycles, double rate,
                      const std::string& config, std::uint64_t seed) {
  NetworkConfig cfg = make_config(mesh);
  cfg.timing.ts = 40;  // the block's links are built for tp = 5, trn = 5, trm = 30
  Machine m(cfg);
  rtl::RtlMeshBlock block(m.mesh().core(), true, config);
  TrafficParams p;
  p.rate = rate;
  p.flits = 4;
  p.warmup = 0;
  p.cycles = traffic_cycles;
  p.seed = seed;
  TrafficGenerator gen(p, mesh, 1);
  m.mesh().attach_traffic(&gen);

  Random rng(seed);
  std::vector<Communicator> comms;
  for (int g = 0; g < 3; ++g) {
    std::vector<NodeId> members;
    for (NodeId n : all_nodes(mesh))
      if (rng.below(2) == 0 || n == 5) members.push_back(n);
    comms.push_back(m.groups().create(mesh, members, g == 2 ? BarrierScheme::CS : BarrierScheme::BTM));
  }
  BlockRun out;
  m.spawn("multicast", [&] { out.multicast_worms = send_multicast_worms(m, traffic_cycles, seed); });
  for (const Communicator& c : comms)
    for (const TreeNode& t : c.members()) {
      m.spawn("", [&, c, node = t.node] {
        Node& me = m.node(node);
        join(me, c);
        Random r(seed * 7919 + node * 31 + c.gid);
        for (std::uint64_t e = 0; e < traffic_cycles / 600; ++e) {
          wait_cycles(r.below(300));
          barrier(me, c);
          ++out.barriers;
        }
        leave(me, c);
      });
    }
  m.run();
  REQUIRE(gen.finished());
  REQUIRE(gen.scoreboard().errors().empty());
  REQUIRE(m.mesh().scoreboard().errors().empty());
  REQUIRE(m.mesh().scoreboard().in_flight() == 0);
  out.cycles = m.now();
  out.compared = block.cycles_compared();
  out.packets = gen.result().packets_delivered;
  return out;
}

}  // namespace

TEST_CASE("cosim: the 8x8 RTL mesh block gives the model's barrier latencies", "[cosim][mesh]") {
  const MeshShape mesh{8, 8};
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS}) {
    std::uint64_t latency[2] = {0, 0};
    for (int with_rtl = 0; with_rtl < 2; ++with_rtl) {
      Machine m(make_config(mesh));
      const auto rtl = mesh_block(m, with_rtl);
      run_driver(m, [&] {
        Communicator c = m.groups().create(mesh, all_nodes(mesh), scheme);
        latency[with_rtl] = measure_barrier(m, c).latency_cycles;
      });
    }
    INFO("scheme " << scheme_name(scheme));
    CHECK(latency[0] == (scheme == BarrierScheme::BTM ? 2460u : 2620u));
    CHECK(latency[1] == latency[0]);
  }
}

TEST_CASE("cosim: the 8x8 RTL mesh block gives the model's traffic latencies", "[cosim][mesh]") {
  const MeshShape mesh{8, 8};
  TrafficResult res[2];
  for (int with_rtl = 0; with_rtl < 2; ++with_rtl) {
    Machine m(make_config(mesh));
    const auto rtl = mesh_block(m, with_rtl);
    TrafficParams p;
    p.rate = 0.1;
    p.flits = 4;
    p.warmup = 200;
    p.cycles = 2000;
    TrafficGenerator gen(p, mesh, 1);
    m.mesh().attach_traffic(&gen);
    m.run();
    REQUIRE(gen.finished());
    REQUIRE(gen.scoreboard().errors().empty());
    res[with_rtl] = gen.result();
  }
  CHECK(res[0].packets_measured > 1000);
  CHECK(res[1].packets_measured == res[0].packets_measured);
  CHECK(res[1].latency_avg == res[0].latency_avg);
  CHECK(res[1].latency_p99 == res[0].latency_p99);
  CHECK(res[1].latency_max == res[0].latency_max);
  CHECK(res[1].flits_delivered == res[0].flits_delivered);
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

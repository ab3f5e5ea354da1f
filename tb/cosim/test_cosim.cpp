// The RTL router in the mesh (Verilator's C++ model): lockstep of every router of a 4x4 mesh
// under random unicast traffic, multidestination worms and concurrent barriers, an all-RTL 8x8 mesh giving the
// model's latencies, and a broken RTL copy that lockstep must catch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "Vrouter_cosim_broken.h"
#include "model/core/packet.hpp"
#include "model/core/random.hpp"
#include "model/core/traffic.hpp"
#include "model/cosim/rtl_mesh.hpp"
#include "support/multicast_worms.hpp"
#include "support/sim_helpers.hpp"
#include "sw/runtime/communicator.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

std::vector<NodeId> every_node(const MeshShape& m) {
  std::vector<NodeId> v;
  for (int n = 0; n < m.nodes(); ++n) v.push_back(static_cast<NodeId>(n));
  return v;
}

// Every router of `m` an RTL router (when `on`); the RtlMesh must outlive the run.
std::unique_ptr<rtl::RtlMesh> all_rtl(Machine& m, bool on) {
  if (!on) return nullptr;
  rtl::CosimOptions opt;
  opt.rtl = every_node(m.mesh().mesh());
  return std::make_unique<rtl::RtlMesh>("rtl", m.mesh().core(), opt);
}

struct MixedRun {
  std::uint64_t cycles = 0;
  std::uint64_t router_cycles = 0;  // RTL router cycles evaluated and compared
  std::uint64_t packets = 0;
  std::uint64_t barriers = 0;
  std::uint64_t multicast_worms = 0;
};

// Random unicast traffic plus `groups` communicators (BTM and CS) each running barriers
// at random times for as long as the traffic runs, every router in lockstep.
MixedRun run_mixed(const MeshShape& mesh, std::uint64_t traffic_cycles, const std::string& config,
                   std::uint64_t seed, std::uint32_t ni_ports = 1) {
  NetworkConfig cfg = make_config(mesh);
  cfg.timing = Timing{40, 2, 5, 30};
  cfg.router.ni_ports = ni_ports;
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.lockstep = every_node(mesh);
  opt.config = config;
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  TrafficParams p;
  p.rate = 0.04;
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
    for (NodeId n : every_node(mesh))
      if (rng.below(2) == 0 || n == 5) members.push_back(n);
    comms.push_back(m.groups().create(mesh, members, g == 2 ? BarrierScheme::CS : BarrierScheme::BTM));
  }
  MixedRun out;
  m.spawn("multicast", [&] { out.multicast_worms = send_multicast_worms(m, traffic_cycles, seed); });
  for (const Communicator& c : comms)
    for (const TreeNode& t : c.members()) {
      m.spawn("", [&, c, node = t.node] {
        Node& me = m.node(node);
        join(me, c);
        Random r(seed * 7919 + node * 31 + c.gid);
        // Every member runs the same number of epochs, arriving at random times.
        for (std::uint64_t e = 0; e < traffic_cycles / 400; ++e) {
          wait_cycles(r.below(200));
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
  out.router_cycles = rtl.cycles_compared();
  out.packets = gen.result().packets_delivered;
  return out;
}

}  // namespace

TEST_CASE("cosim: every router of a 4x4 mesh in lockstep for 100,000 cycles of traffic, multicasts and barriers",
          "[cosim][lockstep]") {
  const MixedRun r = run_mixed(MeshShape{4, 4}, 100000, "", 1);
  INFO("cycles " << r.cycles << ", router-cycles compared " << r.router_cycles << ", packets "
                 << r.packets << ", barriers " << r.barriers << ", multidestination worms "
                 << r.multicast_worms);
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
  INFO("cycles " << r.cycles << ", router-cycles compared " << r.router_cycles << ", packets "
                 << r.packets << ", barriers " << r.barriers << ", multidestination worms "
                 << r.multicast_worms);
  CHECK(r.cycles >= 50000);
  CHECK(r.multicast_worms > 150);
  CHECK(r.packets > 5000);
  CHECK(r.router_cycles > 16 * r.cycles / 3);
}

TEST_CASE("cosim: an 8x8 mesh of RTL routers gives the model's barrier latencies", "[cosim]") {
  const MeshShape mesh{8, 8};
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS}) {
    std::uint64_t latency[2] = {0, 0};
    for (int with_rtl = 0; with_rtl < 2; ++with_rtl) {
      Machine m(make_config(mesh));
      const auto rtl = all_rtl(m, with_rtl);
      run_driver(m, [&] {
        Communicator c = m.groups().create(mesh, every_node(mesh), scheme);
        latency[with_rtl] = measure_barrier(m, c).latency_cycles;
      });
    }
    INFO("scheme " << scheme_name(scheme));
    CHECK(latency[0] == (scheme == BarrierScheme::BTM ? 2460u : 2620u));
    CHECK(latency[1] == latency[0]);
  }
}

TEST_CASE("cosim: an 8x8 mesh of RTL routers gives the model's traffic latencies", "[cosim]") {
  const MeshShape mesh{8, 8};
  TrafficResult res[2];
  for (int with_rtl = 0; with_rtl < 2; ++with_rtl) {
    Machine m(make_config(mesh));
    const auto rtl = all_rtl(m, with_rtl);
    TrafficParams p;
    p.rate = 0.1;
    p.flits = 4;
    p.warmup = 200;
    p.cycles = 2000;
    TrafficGenerator gen(p, mesh, 1);
    m.mesh().attach_traffic(&gen);
    m.run();
    REQUIRE(gen.finished());
    res[with_rtl] = gen.result();
  }
  CHECK(res[0].packets_measured > 1000);
  CHECK(res[1].packets_measured == res[0].packets_measured);
  CHECK(res[1].latency_avg == res[0].latency_avg);
  CHECK(res[1].latency_p99 == res[0].latency_p99);
  CHECK(res[1].latency_max == res[0].latency_max);
  CHECK(res[1].flits_delivered == res[0].flits_delivered);
}

TEST_CASE("cosim: lockstep stops at the first difference of a broken RTL copy", "[cosim][lockstep]") {
  // tb/rtl/broken: an output arbiter that skips input -X after granting +X.
  static const bool added = [] {
    rtl::RtlParams p = rtl::rtl_builds().front().params;
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
    const std::string what = e.what();
    INFO(what);
    CHECK(what.rfind("lockstep: cycle ", 0) == 0);
    CHECK(what.find("router (") != std::string::npos);
    CHECK(what.find("expected") != std::string::npos);
    CHECK(what.find("actual") != std::string::npos);
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
    const std::string what = e.what();
    INFO(what);
    CHECK(what.rfind("lockstep: cycle ", 0) == 0);
    CHECK(what.find("router (1,1): protocol violation, raised by the model and by the RTL") != std::string::npos);
    CHECK(what.find("arrived twice in one epoch") != std::string::npos);
  }
}

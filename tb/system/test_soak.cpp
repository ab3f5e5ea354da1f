// The soak (docs/reliability.md): a run without faults passes with every kind of traffic
// in it; each injected fault is caught and the report names where it happened.
#include <catch2/catch.hpp>

#include <string>

#include "model/core/fault.hpp"
#include "model/core/packet.hpp"
#include "sw/runtime/experiments/soak_experiment.hpp"

using namespace meshsync;

namespace {

NetworkConfig soak_config() {
  NetworkConfig c;
  c.mesh = {8, 8};
  c.router.ni_ports = 4;  // multicasts need the all-port NI
  c.deadlock_cycles = 3000;
  return c;
}

// All violations as one text, to look for the place in.
std::string all(const SoakResult& r) {
  std::string s;
  for (const auto& v : r.violations) s += v + "\n";
  return s;
}

SoakResult soak_with(const std::string& fault) {
  SoakParams p;
  p.cycles = 20000;
  p.faults.push_back(parse_fault(fault, soak_config().mesh));
  return run_soak_experiment(soak_config(), p);
}

}  // namespace

TEST_CASE("soak: 8x8 for 20000 cycles passes, with every kind of traffic in it", "[soak]") {
  SoakParams p;
  p.cycles = 20000;
  const SoakResult r = run_soak_experiment(soak_config(), p);
  INFO(all(r));
  CHECK(r.passed());
  CHECK(r.flits_injected > 50000);
  CHECK(r.flits_delivered == r.flits_injected);
  CHECK(r.unicast_packets > 1000);
  CHECK(r.multicasts > 100);
  CHECK(r.multicasts_done == r.multicasts);
  CHECK(r.worms > r.unicast_packets);  // the multicasts' worms
  // Broadcasts overlap (disjoint ranks) and each gave every rank the root's bytes.
  CHECK(r.broadcasts >= 5);
  CHECK(r.broadcasts_done == r.broadcasts);
  CHECK(r.broadcast_messages >= r.broadcasts * 15 * 3);  // 16 ranks, 600 bytes in 3 packets
  // Allreduces on other free nodes, each rank's result its schedule's.
  CHECK(r.allreduces >= 2);
  CHECK(r.allreduces_done == r.allreduces);
  CHECK(r.allreduce_messages >= r.allreduces * 2 * 15);  // binomial's 2 (P - 1), the fewest
  for (const SoakSchemeCounts* c : {&r.btm, &r.cs}) {
    CHECK(c->groups > 0);
    CHECK(c->epochs >= 2 * c->groups);  // each group went round more than once
    // More groups per router than registers: some members keep theirs in node memory.
    CHECK(c->overflowed_groups > 0);
    CHECK(c->software_members > 0);
  }
  CHECK(r.cycles >= p.cycles);
}

TEST_CASE("soak: allreduces of every algorithm, type and operation in turn all check out", "[soak][allreduce]") {
  SoakParams p;
  p.cycles = 30000;
  p.broadcast_gap = 0;  // the nodes to the allreduces
  p.allreduce_gap = 300;
  p.broadcast_ranks = 6;  // allreduces take as many ranks as a broadcast
  const SoakResult r = run_soak_experiment(soak_config(), p);
  INFO(all(r));
  CHECK(r.passed());
  CHECK(r.allreduces >= 18);  // every algorithm with every type and several operations
  CHECK(r.allreduces_done == r.allreduces);
}

TEST_CASE("soak: allreduces in the routers check out beside everything else, and fall back when registers are full",
          "[soak][allreduce][reduction]") {
  SoakParams p;
  p.cycles = 60000;
  p.broadcast_gap = 0;
  p.allreduce_gap = 300;
  p.broadcast_ranks = 12;
  p.groups = 4;  // room in the registers: every fourth allreduce goes to the routers
  NetworkConfig cfg = soak_config();
  cfg.router.barrier_registers = 8;
  const SoakResult r = run_soak_experiment(cfg, p);
  INFO(all(r));
  CHECK(r.passed());
  CHECK(r.allreduces_done == r.allreduces);
  CHECK(r.allreduces_in_network >= 4);  // int32, int64 and float32 among them (turns 3, 7, 11: types in turn)
  CHECK(r.allreduces_without_registers == 0);
  // The default soak's groups fill the registers (3 x registers + 1): some fall back.
  SoakParams full = p;
  full.groups = -1;
  cfg.router.barrier_registers = 2;
  const SoakResult f = run_soak_experiment(cfg, full);
  INFO(all(f));
  CHECK(f.passed());
  CHECK(f.allreduces_done == f.allreduces);
  CHECK(f.allreduces_without_registers > 0);
}

TEST_CASE("soak: the same seed gives the same run, another seed another one", "[soak]") {
  SoakParams p;
  p.cycles = 5000;
  const SoakResult a = run_soak_experiment(soak_config(), p), b = run_soak_experiment(soak_config(), p);
  CHECK(a.flits_injected == b.flits_injected);
  CHECK(a.cycles == b.cycles);
  CHECK(a.btm.epochs == b.btm.epochs);
  CHECK(a.broadcast_messages == b.broadcast_messages);
  p.seed = 2;
  const SoakResult c = run_soak_experiment(soak_config(), p);
  CHECK(c.flits_injected != a.flits_injected);
}

TEST_CASE("soak: a corrupted flit is caught by the scoreboard, naming the packet and the link", "[soak][fault]") {
  const SoakResult r = soak_with("corrupt:3,3,+X@5000");
  REQUIRE_FALSE(r.passed());
  const std::string& v = r.violations.front();
  INFO(all(r));
  CHECK_THAT(v, Catch::Contains("with payload"));
  CHECK_THAT(v, Catch::Contains("packet "));
  CHECK_THAT(v, Catch::Contains("arrived at router ("));
  CHECK_THAT(v, Catch::Contains("it crossed link (3,3) +X"));
}

TEST_CASE("soak: a stopped link or router shows as the watchdog naming it and the buffers it holds", "[soak][fault]") {
  struct Case {
    const char* fault;
    const char* reported;
    const char* stuck;  // the buffers at the fault, listed first
  };
  for (const Case& c : {Case{"link:3,3,+X@5000", "fault injected: link (3,3) +X stopped from cycle 5000",
                             "router (3,3) input local worm: 16 flit(s)"},
                        Case{"router:4,4@5000", "fault injected: router (4,4) stopped from cycle 5000",
                             "router (4,4) input"}}) {
    const SoakResult r = soak_with(c.fault);
    REQUIRE_FALSE(r.passed());
    const std::string s = all(r);
    INFO(s);
    CHECK_THAT(r.violations.front(), Catch::StartsWith("deadlock: no flit moved"));
    // The fault's own line first, then the buffers it holds, then the jam behind them.
    const std::string& report = r.violations.front();
    const std::size_t fault_at = report.find(c.reported), stuck_at = report.find(c.stuck);
    REQUIRE(fault_at != std::string::npos);
    REQUIRE(stuck_at != std::string::npos);
    CHECK(report.find("\n  router", fault_at) == stuck_at - 3);  // the first router line after the fault
  }
}

TEST_CASE("soak: a barrier message lost on a dead link leaves its epoch unfinished, named", "[soak][fault]") {
  SoakParams p;
  p.cycles = 20000;
  p.rate = 0;
  p.multicast_rate = 0;
  p.faults.push_back(parse_fault("link:0,0,+X@5000", soak_config().mesh));
  const SoakResult r = run_soak_experiment(soak_config(), p);
  REQUIRE_FALSE(r.passed());
  const std::string s = all(r);
  INFO(s);
  CHECK_THAT(s, Catch::Contains("fault injected: link (0,0) +X stopped"));
  CHECK_THAT(s, Catch::Contains("never finished"));
}

TEST_CASE("soak: faults are refused with one line naming what is wrong", "[soak][fault][errors]") {
  const MeshShape mesh{8, 8};
  const auto refused = [&](const std::string& spec, const std::string& what) {
    INFO(spec);
    CHECK_THROWS_WITH(parse_fault(spec, mesh), Catch::Contains(what));
  };
  refused("link:3,3@5", "needs a direction");
  refused("router:3,3,+X@5", "takes no direction");
  refused("link:8,0,+X@5", "outside the 8x8 mesh");
  refused("link:7,0,+X@5", "has no link +X");
  refused("corrupt:0,0,-Y@5", "has no link -Y");
  refused("link:1,1,+Z@5", "malformed fault");
  refused("wire:1,1,+X@5", "malformed fault");
  refused("link:1,1,+X", "malformed fault");
  refused("link:1,1,+X@5 ", "malformed fault");
  refused("link:1," + std::string(100000, ' ') + "1,+X@5", "malformed fault");  // no stack overflow
  refused("link:1,1,+X@1234567890123456789", "malformed fault");  // 19 digits
  const Fault f = parse_fault("corrupt:2,5,-X@123", mesh);
  CHECK(f.kind == FaultKind::Corrupt);
  CHECK(f.at.x == 2);
  CHECK(f.at.y == 5);
  CHECK(f.port == Port::MinusX);
  CHECK(f.cycle == 123);
}

TEST_CASE("scoreboard: lost, duplicated, reordered and modified flits are each named", "[soak][scoreboard]") {
  Scoreboard b;
  b.set_mesh({4, 4});
  const auto worm = make_worm(7, 0, 5, 4, 0, {11, 12, 13});
  b.expect(7, 0, 5, 4, 0, {11, 12, 13});
  CHECK(b.expected_flits() == 4);
  b.deliver(5, worm[0], 10);
  Flit bad = worm[1];
  bad.payload ^= 4;  // 11 = 0xb becomes 0xf
  b.deliver(5, bad, 11);
  REQUIRE(b.errors().size() == 1);
  CHECK_THAT(b.errors()[0], Catch::Contains("cycle 11: packet 7: flit 1 arrived at router (1,1)"));
  CHECK_THAT(b.errors()[0], Catch::Contains("payload 0x0000000f where 0x0000000b was sent"));
  b.deliver(5, worm[3], 12);  // flit 2 skipped
  REQUIRE(b.errors().size() == 2);
  CHECK_THAT(b.errors()[1], Catch::Contains("flit 3 arrived at router (1,1) (local port, VC 0) when flit 2 was due"));
  b.deliver(5, worm[3], 13);  // the tail again: now it completes the packet
  CHECK(b.in_flight() == 0);
  b.deliver(5, worm[3], 14);  // a duplicate of a finished packet
  REQUIRE(b.errors().size() == 3);
  CHECK_THAT(b.errors()[2], Catch::Contains("not expected (duplicate or unknown)"));
  // A packet never delivered stays in flight.
  b.expect(8, 0, 5, 2, 0);
  CHECK(b.in_flight() == 1);
  CHECK(b.delivered_flits() < b.expected_flits());
}

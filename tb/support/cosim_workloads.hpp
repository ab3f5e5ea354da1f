// The workloads the mesh co-simulation tests run, once with per-node RTL routers
// (tb/cosim/test_cosim.cpp) and once with the whole mesh as one Verilated block
// (test_cosim_block.cpp, test_cosim_mesh.cpp): the workload is the same.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "model/core/random.hpp"
#include "model/core/traffic.hpp"
#include "model/cosim/rtl_mesh_block.hpp"
#include "multicast_worms.hpp"
#include "sim_helpers.hpp"
#include "sw/runtime/communicator.hpp"
#include "tree_reference.hpp"

namespace meshsync::test {

// Random unicast traffic, multidestination worms of all four algorithms, and three
// communicators (two BTM, one CS, about half the nodes each, node 5 in all) whose members
// run the same number of barriers, each after a random wait, while the traffic runs.
struct MixedWorkload {
  std::uint64_t cycles = 0;        // of traffic; the run ends when everything has drained
  double rate = 0.04;              // flits/node/cycle, 4-flit packets
  std::uint64_t seed = 1;
  std::uint64_t epoch_cycles = 400;  // one barrier per member per this many traffic cycles
  std::uint64_t max_wait = 200;      // each barrier after 0 .. max_wait - 1 cycles
};

struct MixedCounts {
  std::uint64_t cycles = 0;
  std::uint64_t packets = 0;
  std::uint64_t barriers = 0;
  std::uint64_t multicast_worms = 0;
};

inline std::ostream& operator<<(std::ostream& os, const MixedCounts& r) {
  return os << "cycles " << r.cycles << ", packets " << r.packets << ", barriers " << r.barriers
            << ", multicast worms " << r.multicast_worms;
}

// A lockstep run stopped by a difference: one line naming the cycle, the place (`place`:
// "router (" for single RTL routers, "node (" at the mesh block's boundary) and what each
// side did.
inline void check_first_difference(const std::string& what, const std::string& place) {
  INFO(what);
  CHECK(what.rfind("lockstep: cycle ", 0) == 0);
  CHECK(what.find(place) != std::string::npos);
  CHECK(what.find("expected") != std::string::npos);
  CHECK(what.find("actual") != std::string::npos);
  CHECK(what.find('\n') == std::string::npos);
}

// A lockstep run stopped by a protocol violation that the model and the RTL raised in the
// same cycle: one line naming the cycle, `place` and the model's words for it (`says`).
inline void check_violation_in_both(const std::string& what, const std::string& place, const std::string& says) {
  INFO(what);
  CHECK(what.rfind("lockstep: cycle ", 0) == 0);
  CHECK(what.find(place) != std::string::npos);
  CHECK(what.find("protocol violation, raised by the model and by the RTL") != std::string::npos);
  CHECK(what.find(says) != std::string::npos);
  CHECK(what.find('\n') == std::string::npos);
}

// Runs `w` on `m` (its RTL already attached) and checks that every packet and worm
// arrived exactly once.
inline MixedCounts run_mixed_workload(Machine& m, const MixedWorkload& w) {
  const MeshShape& mesh = m.mesh().mesh();
  TrafficParams p;
  p.rate = w.rate;
  p.flits = 4;
  p.warmup = 0;
  p.cycles = w.cycles;
  p.seed = w.seed;
  TrafficGenerator gen(p, mesh, 1);
  m.mesh().attach_traffic(&gen);

  Random rng(w.seed);
  std::vector<Communicator> comms;
  for (int g = 0; g < 3; ++g) {
    std::vector<NodeId> members;
    for (NodeId n : ref::all_nodes(mesh))
      if (rng.below(2) == 0 || n == 5) members.push_back(n);
    comms.push_back(m.groups().create(mesh, members, g == 2 ? BarrierScheme::CS : BarrierScheme::BTM));
  }
  MixedCounts out;
  m.spawn("multicast", [&] { out.multicast_worms = send_multicast_worms(m, w.cycles, w.seed); });
  for (const Communicator& c : comms)
    for (const TreeNode& t : c.members()) {
      m.spawn("", [&, c, node = t.node] {
        Node& me = m.node(node);
        join(me, c);
        Random r(w.seed * 7919 + node * 31 + c.gid);
        for (std::uint64_t e = 0; e < w.cycles / w.epoch_cycles; ++e) {
          wait_cycles(r.below(w.max_wait));
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
  out.packets = gen.result().packets_delivered;
  return out;
}

struct BlockRun : MixedCounts {
  std::uint64_t compared = 0;  // cycles the block ran, its boundary compared
};

// The mixed workload with the RTL mesh block of configuration `config` (the one built for
// `mesh`, tp = 5, when empty) in lockstep with the model's mesh; the model's router is
// `router` (the model's defaults when null).
inline BlockRun run_block_lockstep(const MeshShape& mesh, std::uint64_t traffic_cycles, double rate,
                                   const std::string& config, std::uint64_t seed,
                                   const rtl::RtlParams* router = nullptr) {
  NetworkConfig cfg = make_config(mesh);
  if (router != nullptr) cfg = rtl::with_router(cfg, *router);
  cfg.timing.ts = 40;  // the blocks' links are built for tp = 5, trn = 5, trm = 30
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

// One complete barrier of `scheme` on `mesh` (paper timing), with the RTL that
// `attach(Machine&)` returns (keeping it alive for the run; nullptr for the model alone).
template <class Attach>
std::uint64_t complete_barrier_latency(const MeshShape& mesh, BarrierScheme scheme, Attach attach) {
  Machine m(make_config(mesh));
  const auto rtl = attach(m);
  std::uint64_t latency = 0;
  run_driver(m, [&] {
    Communicator c = m.groups().create(mesh, ref::all_nodes(mesh), scheme);
    latency = measure_barrier(m, c).latency_cycles;
  });
  return latency;
}

// Uniform traffic at 0.1 flits/node/cycle, 4-flit packets, 200 + 2000 cycles, with the RTL
// that `attach(Machine&)` returns.
template <class Attach>
TrafficResult uniform_traffic(const MeshShape& mesh, Attach attach) {
  Machine m(make_config(mesh));
  const auto rtl = attach(m);
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
  return gen.result();
}

// Two runs of the same traffic deliver the same packets with the same latencies.
inline void check_same_traffic(const TrafficResult& model, const TrafficResult& rtl) {
  CHECK(model.packets_measured > 1000);
  CHECK(rtl.packets_measured == model.packets_measured);
  CHECK(rtl.latency_avg == model.latency_avg);
  CHECK(rtl.latency_p99 == model.latency_p99);
  CHECK(rtl.latency_max == model.latency_max);
  CHECK(rtl.flits_delivered == model.flits_delivered);
}

}  // namespace meshsync::test

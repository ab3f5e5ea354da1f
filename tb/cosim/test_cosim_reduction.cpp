// The in-network reduction (docs/reduction-hardware.md) on RTL routers in lockstep with the
// model: routers a reduction only crosses (its body flits follow their heads under the
// owner rule of the sync VCs), every router (contexts, descriptor checks, lanes, the fold
// and the streams), members that disagree (the violation raised by both in one cycle),
// and a vector longer than an RTL router's lanes (refused in one line).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "model/core/reduction_message.hpp"
#include "model/cosim/rtl_builds.hpp"
#include "model/cosim/rtl_mesh.hpp"
#include "support/cosim_workloads.hpp"
#include "support/malformed_reduction.hpp"
#include "support/sim_helpers.hpp"
#include "sw/collective/barrier_tree.hpp"
#include "sw/collective/member_spec.hpp"
#include "sw/collective/tree_reduction.hpp"
#include "sw/runtime/allreduce_run.hpp"
#include "sw/runtime/communicator.hpp"
#include "sw/runtime/experiments/allreduce_experiment.hpp"

using namespace meshsync;

namespace {

// Every node of `mesh` that is not in `members`.
std::vector<NodeId> others(const MeshShape& mesh, const std::vector<NodeId>& members) {
  std::vector<NodeId> out;
  for (int n = 0; n < mesh.nodes(); ++n)
    if (std::find(members.begin(), members.end(), static_cast<NodeId>(n)) == members.end())
      out.push_back(static_cast<NodeId>(n));
  return out;
}

}  // namespace

TEST_CASE("cosim: reduction messages cross RTL routers in lockstep, longer than their sync buffers",
          "[cosim][lockstep][reduction]") {
  const NetworkConfig cfg = test::make_config({6, 6});
  const std::string spec = GENERATE(std::string("0,0;5,0;0,5;5,5;3,2"), std::string("random:14"));
  const bool all = GENERATE(true, false);
  INFO("members " << spec << (all ? ", allreduce" : ", reduce"));
  const std::vector<NodeId> nodes = parse_members(spec, cfg.mesh, 6);
  // Three elements: 8-flit messages behind 4-flit sync buffers, so worms stall on credits
  // with their VCs held.
  const std::vector<ReduceVector> inputs = allreduce_inputs(ElementType::Int32, nodes.size(), 3, 5);
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.lockstep = others(cfg.mesh, nodes);
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  AllreduceRunResult r;
  test::run_driver(m, [&] { r = run_in_network_reduction(m, nodes, ReduceOp::Sum, ElementType::Int32, inputs, all); });
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, nodes);
  const ReduceVector want = reduce_along_tree(tree, ReduceOp::Sum, ElementType::Int32, inputs);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    INFO("rank " << k);
    if (all || nodes[k] == tree.root()) CHECK(r.results[k] == want);
  }
  // The same run on model routers alone takes the same cycles.
  Machine plain(cfg);
  AllreduceRunResult model;
  test::run_driver(plain,
                   [&] { model = run_in_network_reduction(plain, nodes, ReduceOp::Sum, ElementType::Int32, inputs, all); });
  CHECK(r.latency() == model.latency());
  CHECK(rtl.cycles_compared() > 0);
}

TEST_CASE("cosim: every router in lockstep reduces bit for bit as the model, each operation and type",
          "[cosim][lockstep][reduction]") {
  struct Case {
    ReduceOp op;
    ElementType type;
    std::size_t elements;  // the `model` configuration's lanes hold 4 words
  };
  const Case k = GENERATE(Case{ReduceOp::Sum, ElementType::Int32, 4}, Case{ReduceOp::Min, ElementType::Int32, 3},
                          Case{ReduceOp::Xor, ElementType::Int32, 1}, Case{ReduceOp::Max, ElementType::Int64, 2},
                          Case{ReduceOp::And, ElementType::Int64, 1}, Case{ReduceOp::Sum, ElementType::Float32, 4},
                          Case{ReduceOp::Max, ElementType::Float32, 2});
  const bool all = GENERATE(true, false);
  INFO(reduce_op_name(k.op) << " " << element_type_name(k.type) << " x" << k.elements << (all ? ", allreduce" : ", reduce"));
  const NetworkConfig cfg = test::make_config({6, 6});
  const std::vector<NodeId> nodes = parse_members("random:17", cfg.mesh, 4);
  std::vector<ReduceVector> inputs = allreduce_inputs(k.type, nodes.size(), k.elements, 9);
  if (k.type == ElementType::Float32) {
    // Values whose sum depends on the order: the routers' order must be the reference's.
    inputs[0][0] = word_of(16777216.0f);
    inputs[3][0] = word_of(1.0f);
    inputs[5][0] = word_of(-16777216.0f);
  }
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.lockstep = others(cfg.mesh, {});
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  AllreduceRunResult r;
  test::run_driver(m, [&] { r = run_in_network_reduction(m, nodes, k.op, k.type, inputs, all); });
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, nodes);
  const ReduceVector want = reduce_along_tree(tree, k.op, k.type, inputs);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    INFO("rank " << i);
    if (all || nodes[i] == tree.root()) CHECK(r.results[i] == want);
  }
  CHECK(rtl.cycles_compared() > 0);
}

TEST_CASE("cosim: members that disagree stop a lockstep run, raised by the model and by the RTL in one cycle",
          "[cosim][lockstep][reduction][error]") {
  // Member 2 calls something else: another operation, another length, or a barrier.
  const int variant = GENERATE(0, 1, 2);
  const char* const says[] = {"allreduce max int32 x2", "allreduce sum int32 x3", "epoch (every member must make"};
  INFO("variant " << variant);
  const MeshShape mesh{4, 4};
  Machine m(test::make_config(mesh));
  rtl::CosimOptions opt;
  opt.lockstep = others(mesh, {});
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  const Communicator c = m.groups().create(mesh, {0, 5, 10, 15}, BarrierScheme::BTM);
  for (std::size_t k = 0; k < 4; ++k)
    m.spawn("member_" + std::to_string(k), [&m, &c, k, variant] {
      Node& node = m.node(c.members()[k].node);
      join(node, c);
      const bool odd = k == 2;
      if (odd && variant == 2) {
        barrier(node, c);
      } else if (odd && variant == 1) {
        node.reduce_in_network(c.gid, ReductionDescriptor{ReduceOp::Sum, ElementType::Int32, true, 3}, {1, 2, 3});
      } else {
        const ReduceOp op = odd ? ReduceOp::Max : ReduceOp::Sum;
        node.reduce_in_network(c.gid, ReductionDescriptor{op, ElementType::Int32, true, 2}, {1, 2});
      }
    });
  try {
    m.run();
    FAIL("the run went on after the members disagreed");
  } catch (const SimulationError& e) {
    test::check_violation_in_both(e.what(), "router (", says[variant]);
  }
}

TEST_CASE("cosim: every malformed reduction message is a violation raised by the model and by the RTL in one cycle",
          "[cosim][lockstep][reduction][error]") {
  // Router (1,1) holds a member register whose child (2,1) is slot 0; the messages are
  // made here, not by an NI, so they can break the format (docs/reduction-hardware.md,
  // section 6).
  const MeshShape mesh{4, 4};
  const NodeId self = mesh.id({1, 1}), child = mesh.id({2, 1});
  const std::uint8_t gid = 9;
  const std::vector<test::MalformedReduction> cases = test::malformed_reductions(gid, self, child);
  const std::size_t k = GENERATE_COPY(range(std::size_t{0}, cases.size()));
  const test::MalformedReduction& c = cases[k];
  const NodeId from = c.from_child ? child : self;
  INFO("case " << k << ": " << c.what);
  Machine m(test::make_config(mesh));
  rtl::CosimOptions opt;
  opt.lockstep = others(mesh, {});
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  BarrierRegisterSetup s;
  s.gid = gid;
  s.children = {{child, Route::XY}};
  try {
    test::run_driver(m, [&] {
      m.mesh().program_register(self, s, [](bool ok) { REQUIRE(ok); });
      test::wait_cycles(3);
      for (const Flit& f : c.flits) m.mesh().inject(from, f, m.mesh().now_cycle() + 1);
      test::wait_cycles(300);
    });
    FAIL("the run went on after a malformed reduction message");
  } catch (const SimulationError& e) {
    test::check_violation_in_both(e.what(), c.flits.size() == 1 ? "router (2,1)" : "router (1,1)", c.what);
  }
}

TEST_CASE("cosim: a software write while a result streams lets its worms finish, in lockstep",
          "[cosim][lockstep][reduction]") {
  // 3x1, every node a member; the root reprograms its register some cycles into the
  // release, whose 10-flit worms stream to the children through 4-flit sync buffers.
  const int offset = GENERATE(range(26, 56, 3));
  INFO("write " << offset << " cycles after the release");
  NetworkConfig cfg = test::make_config({3, 1});
  cfg.timing.ts = 10;
  cfg.timing.tp = 1;
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.lockstep = others(cfg.mesh, {});
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  const std::uint8_t gid = 7;
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, {0, 1, 2});
  const NodeId root = tree.root();
  test::LocalSyncProbe probe;
  m.mesh().core().set_probe(&probe);
  std::uint64_t barrier_start = 0;
  test::run_driver(m, [&] {
    MeshSystem& ms = m.mesh();
    // Until the root's NI has the reduction's message from `since` on (the NIs have not
    // joined, so the root's does not start the release itself).
    const auto wait_for_root = [&](std::uint64_t since) {
      while (std::none_of(probe.seen.begin(), probe.seen.end(), [&](const test::LocalSync& e) {
        return e.node == root && e.cycle >= since && e.flit.head && e.flit.stype == SyncType::Arrive;
      }))
        test::wait_cycles(1);
    };
    for (NodeId n : {0u, 1u, 2u}) ms.program_register(n, tree.register_for(n, gid), [](bool ok) { REQUIRE(ok); });
    test::wait_cycles(5);
    const ReductionDescriptor d{ReduceOp::Sum, ElementType::Int32, true, 4};
    for (NodeId n : {0u, 1u, 2u})
      for (const Flit& f : make_reduction_message(make_sync(SyncType::Arrive, gid, n, n, Route::XY, kLocalSlot), d,
                                                  std::vector<std::uint32_t>(4, n + 1)))
        ms.inject(n, f, ms.now_cycle() + 1);
    wait_for_root(0);
    ms.inject(root, make_sync(SyncType::Release, gid, root, root, Route::XY, 0), ms.now_cycle() + 3);
    test::wait_cycles(3 + static_cast<std::uint64_t>(offset));
    ms.program_register(root, tree.register_for(root, gid), [](bool ok) { REQUIRE(ok); });
    test::wait_cycles(1);
    ms.wait_sync_drained();
    // A barrier epoch on the rewritten register: every member released once.
    barrier_start = ms.now_cycle();
    for (NodeId n : {0u, 1u, 2u}) ms.inject(n, make_sync(SyncType::Arrive, gid, n, n, Route::XY, kLocalSlot), ms.now_cycle() + 1);
    wait_for_root(barrier_start);
    ms.inject(root, make_sync(SyncType::Release, gid, root, root, Route::XY, 0), ms.now_cycle() + 3);
    test::wait_cycles(4);
    ms.wait_sync_drained();
  });
  std::multiset<NodeId> released;
  for (const test::LocalSync& e : probe.seen)
    if (e.cycle >= barrier_start && e.flit.head && e.flit.stype == SyncType::Release) released.insert(e.node);
  CHECK(released == std::multiset<NodeId>{0, 1, 2});
  CHECK(rtl.cycles_compared() > 0);
}

TEST_CASE("cosim: an in-network reduction longer than an RTL rank's lanes is refused with one line",
          "[cosim][reduction][error]") {
  const NetworkConfig cfg = test::make_config({4, 4});
  const std::vector<NodeId> nodes = parse_members("0,0;3,3;1,2", cfg.mesh, 1);
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.rtl = {cfg.mesh.id({1, 2})};
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  // The `model` configuration's lanes hold 4 words; the model routers' hold 1024.
  const std::vector<ReduceVector> inputs = allreduce_inputs(ElementType::Int32, nodes.size(), 5, 1);
  try {
    test::run_driver(m, [&] { run_in_network_reduction(m, nodes, ReduceOp::Sum, ElementType::Int32, inputs); });
    FAIL("the reduction ran past an RTL router's lanes");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("the RTL router of node (1,2) has 4-word lanes") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
  }
}

TEST_CASE("cosim: even an empty vector is refused at a rank whose RTL router has no lanes", "[cosim][reduction][error]") {
  // The design point (`default`, ReduceWords 0) serves a run whose model routers have lanes.
  NetworkConfig cfg = test::make_config({4, 4});
  for (const rtl::RtlBuild& b : rtl::rtl_builds())
    if (b.params.name == "default") cfg = rtl::with_router(cfg, b.params);
  cfg.router.reduce_words = 1024;
  const std::vector<NodeId> nodes = parse_members("0,0;3,0;0,3;3,3;1,2", cfg.mesh, 1);
  Machine m(cfg);
  rtl::CosimOptions opt;
  opt.lockstep = others(cfg.mesh, {});
  opt.config = "default";
  rtl::RtlMesh rtl("rtl", m.mesh().core(), opt);
  try {
    test::run_driver(m, [&] {
      run_in_network_reduction(m, nodes, ReduceOp::Sum, ElementType::Int32, std::vector<ReduceVector>(nodes.size()));
    });
    FAIL("an empty reduction ran at RTL routers without lanes");
  } catch (const ConfigError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("has no lanes") != std::string::npos);
  }
}

// The in-network reduction (docs/reduction-hardware.md): the routers combine the members'
// vectors along the BTM barrier tree. Every rank's result equals the reduction along the
// tree bit for bit (children by slot, then the own vector), and for integers the exact
// reduction; the zero-load latency is the barrier's plus the vector's flits behind the
// last head, whenever t_rm covers a member's work; members that disagree on the call stop
// the run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "support/sim_helpers.hpp"
#include "sw/collective/barrier_tree.hpp"
#include "sw/collective/member_spec.hpp"
#include "sw/collective/tree_reduction.hpp"
#include "sw/runtime/experiments/allreduce_experiment.hpp"

using namespace meshsync;
using meshsync::test::make_config;

namespace {

AllreduceParams btm(const char* comm, ReduceOp op, ElementType t, std::int64_t elements, std::uint64_t seed = 5) {
  AllreduceParams p;
  p.comm = comm;
  p.op = op;
  p.type = t;
  p.elements = elements;
  p.seed = seed;
  p.algorithms = {AllreduceAlgorithm::Btm};
  return p;
}

}  // namespace

TEST_CASE("in-network reduction: every rank gets the tree's reduction, for every operation and type",
          "[reduction][allreduce][system]") {
  const NetworkConfig cfg = make_config({8, 8});
  for (const char* comm : {"random:2", "random:17", "random:40", "all"})
    for (ElementType t : kAllElementTypes)
      for (ReduceOp op : kAllReduceOps) {
        if (t == ElementType::Float32 && (op == ReduceOp::And || op == ReduceOp::Or || op == ReduceOp::Xor)) continue;
        for (std::int64_t K : {1, 3, 16}) {
          const AllreduceExperimentResult x = run_allreduce_experiment(cfg, btm(comm, op, t, K));
          const AllreduceAlgorithmRun& r = x.runs.at(0);
          INFO(comm << " " << reduce_op_name(op) << " " << element_type_name(t) << " K " << K);
          CHECK(r.correct);
          CHECK(r.problem.empty());
          const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, x.nodes);
          const ReduceVector want = reduce_along_tree(tree, op, t, x.inputs);
          for (const ReduceVector& got : r.run.results) CHECK(got == want);
          CHECK(r.run.hops == tree.analytic_hops());
        }
      }
}

TEST_CASE("in-network reduction: a float32 sum follows the tree's order, not the ranks'", "[reduction][allreduce][system]") {
  // 2^24 + 1 + 1 - 2^24 depends on the order: the result must be the tree's exactly.
  const NetworkConfig cfg = make_config({4, 4});
  Machine m(cfg);
  const std::vector<NodeId> nodes = parse_members("all", cfg.mesh, 1);
  std::vector<ReduceVector> inputs(nodes.size(), ReduceVector{word_of(1.0f)});
  inputs[0][0] = word_of(16777216.0f);
  inputs[7][0] = word_of(-16777216.0f);
  inputs[12][0] = word_of(3.0e7f);
  AllreduceRunResult r;
  test::run_driver(m, [&] { r = run_in_network_reduction(m, nodes, ReduceOp::Sum, ElementType::Float32, inputs); });
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, nodes);
  const ReduceVector want = reduce_along_tree(tree, ReduceOp::Sum, ElementType::Float32, inputs);
  CHECK(want != reduce_in_rank_order(ReduceOp::Sum, ElementType::Float32, inputs));
  for (const ReduceVector& got : r.results) CHECK(got == want);
  // Every flit of every message crossed the tree's links: 4 flits (head, descriptor, two
  // halves) up and down each edge.
  CHECK(m.mesh().core().counters().sync_flit_hops == tree.analytic_hops() * 4);
}

TEST_CASE("in-network reduction: an empty vector is a barrier of two-flit messages", "[reduction][system]") {
  const NetworkConfig cfg = make_config({6, 6});
  Machine m(cfg);
  const std::vector<NodeId> nodes = parse_members("random:14", cfg.mesh, 6);
  AllreduceRunResult r;
  test::run_driver(m, [&] {
    r = run_in_network_reduction(m, nodes, ReduceOp::Max, ElementType::Int64, std::vector<ReduceVector>(nodes.size()));
  });
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, nodes);
  CHECK(r.latency() == tree.analytic_allreduce_cycles(cfg.timing, 0));
  CHECK(r.latency() == tree.analytic_cycles(cfg.timing) + 1);  // L = 2: the descriptor behind the head
  for (const ReduceVector& got : r.results) CHECK(got.empty());
}

TEST_CASE("in-network reduction: a reduce leaves the result at the tree's root only", "[reduction][system]") {
  const NetworkConfig cfg = make_config({6, 6});
  Machine m(cfg);
  const std::vector<NodeId> nodes = parse_members("random:13", cfg.mesh, 2);
  const std::vector<ReduceVector> inputs = allreduce_inputs(ElementType::Int64, nodes.size(), 4, 3);
  AllreduceRunResult r;
  test::run_driver(m, [&] { r = run_in_network_reduction(m, nodes, ReduceOp::Max, ElementType::Int64, inputs, false); });
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, nodes);
  const ReduceVector want = reduce_in_rank_order(ReduceOp::Max, ElementType::Int64, inputs);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    INFO("rank " << k);
    if (nodes[k] == tree.root()) CHECK(r.results[k] == want);
    else CHECK(r.results[k].empty());
  }
}

TEST_CASE("in-network reduction: members call allreduce btm on a communicator from their threads",
          "[reduction][allreduce][system]") {
  const NetworkConfig cfg = make_config({6, 6});
  Machine m(cfg);
  const std::vector<NodeId> members = parse_members("random:9", cfg.mesh, 3);
  const Communicator c = m.groups().create(cfg.mesh, members, BarrierScheme::BTM);
  const std::vector<ReduceVector> inputs = allreduce_inputs(ElementType::Int32, members.size(), 5, 8);
  const ReduceVector want = reduce_in_rank_order(ReduceOp::Sum, ElementType::Int32, inputs);
  std::vector<ReduceVector> got(members.size());
  for (std::size_t k = 0; k < members.size(); ++k)
    m.spawn("rank" + std::to_string(k), [&, k] {
      Node& node = m.node(members[k]);
      REQUIRE(join(node, c));
      got[k] = inputs[k];
      // Twice: a second epoch on the same registers, after a barrier between them.
      allreduce(node, c, got[k], ReduceOp::Sum, ElementType::Int32, AllreduceAlgorithm::Btm);
      barrier(node, c);
      allreduce(node, c, got[k], ReduceOp::Sum, ElementType::Int32, AllreduceAlgorithm::Btm);
    });
  m.run();
  ReduceVector twice = want;
  for (std::uint32_t& w : twice) w *= static_cast<std::uint32_t>(members.size());
  for (std::size_t k = 0; k < members.size(); ++k) CHECK(got[k] == twice);
}

TEST_CASE("in-network reduction: zero-load latency is the barrier's plus the vector's flits behind its head",
          "[reduction][allreduce][system][formula]") {
  struct Case {
    const char* comm;
    ElementType type;
    std::int64_t elements;
    Timing timing;
  };
  const Timing paper{};
  const Timing fast{100, 1, 5, 40};
  for (const Case& k : {Case{"all", ElementType::Int32, 1, paper}, Case{"random:17", ElementType::Float32, 3, paper},
                        Case{"random:40", ElementType::Int64, 2, paper}, Case{"all", ElementType::Int32, 16, fast},
                        Case{"random:9", ElementType::Float32, 40, fast}}) {
    NetworkConfig cfg = make_config({8, 8}, k.timing);
    const auto words = static_cast<std::uint32_t>(k.elements * static_cast<std::int64_t>(words_per_element(k.type)));
    cfg.timing.trm = std::max(cfg.timing.trm, exact_reduction_trm_minimum(cfg.router, words, static_cast<std::uint32_t>(k.elements)));
    cfg.router.sync_buffer_depth = 2 * cfg.timing.tp + cfg.timing.trn + 1;
    const AllreduceExperimentResult x = run_allreduce_experiment(cfg, btm(k.comm, ReduceOp::Sum, k.type, k.elements));
    const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, x.nodes);
    INFO(k.comm << " " << element_type_name(k.type) << " K " << k.elements << " trm " << cfg.timing.trm);
    CHECK(x.runs.at(0).correct);
    CHECK(x.runs.at(0).run.latency() == tree.analytic_allreduce_cycles(cfg.timing, words));
  }
}

TEST_CASE("in-network reduction: random groups on random meshes take exactly the formula wherever no two messages "
          "compete",
          "[reduction][allreduce][system][formula][exact]") {
  // NOTES-reduction.md: the simulator meets the formula exactly "where no two messages
  // compete". BarrierTree::allreduce_contention says where reduction messages (worms of L
  // flits) do on the formula's own schedule: two routes through one link while a worm
  // streams, a worm leaving an input while another does, too few sync buffer slots, a
  // member's unit still taking one worm when a later one arrives. Everywhere else, from
  // T_min and the worm rule's sync buffer on, `allreduce --exact` must hold (issue 36:
  // 7x5, random:10, seed 3 was a cycle over while the docs claimed every tree).
  const std::vector<MeshShape> meshes = {{7, 5}, {8, 8}, {5, 9}, {12, 4}, {3, 11}, {1, 9}, {6, 2}};
  struct Vector {
    ElementType type;
    std::int64_t elements;
  };
  const Vector vectors[] = {{ElementType::Int32, 1}, {ElementType::Float32, 3}, {ElementType::Int64, 2},
                            {ElementType::Int32, 5}};
  const Timing timings[] = {{1000, 5, 5, 30}, {7, 1, 1, 0}, {50, 3, 2, 0}};
  Random pick(3624);
  int exact = 0, contended = 0, off = 0;  // trees; contended ones off the formula
  for (const MeshShape& mesh : meshes)
    for (std::size_t ti = 0; ti < std::size(timings); ++ti)
      for (int g = 0; g < 12; ++g) {
        const Vector v = vectors[pick.below(std::size(vectors))];
        const auto words = static_cast<std::uint32_t>(v.elements * static_cast<std::int64_t>(words_per_element(v.type)));
        NetworkConfig cfg = make_config(mesh, timings[ti]);
        // From T_min up, and the smallest sync buffer the worm rule allows (a few more slots
        // at the third timing).
        cfg.timing.trm = std::max(cfg.timing.trm, exact_reduction_trm_minimum(cfg.router, words,
                                                                              static_cast<std::uint32_t>(v.elements))) +
                         static_cast<std::uint32_t>(ti);
        cfg.router.sync_buffer_depth =
            std::min(2 + 2 * words, 2 * cfg.timing.tp + cfg.timing.trn + 1) + (ti == 2 ? 3 : 0);
        const std::size_t n = 2 + pick.below(static_cast<std::uint64_t>(mesh.nodes()) - 1);  // 2 .. all
        const std::string comm = "random:" + std::to_string(n);
        AllreduceParams p = btm(comm.c_str(), ReduceOp::Sum, v.type, v.elements, pick.below(std::uint64_t{1} << 40));
        p.exact = true;  // refused unless t_rm and the buffers allow it; fills `contention`
        const AllreduceExperimentResult x = run_allreduce_experiment(cfg, p);
        const AllreduceAlgorithmRun& r = x.runs.at(0);
        INFO(comm << " seed " << p.seed << " on " << mesh.width << "x" << mesh.height << ", "
                  << element_type_name(v.type) << " K " << v.elements << ", ts " << cfg.timing.ts << " tp "
                  << cfg.timing.tp << " trn " << cfg.timing.trn << " trm " << cfg.timing.trm << ", sync buffer "
                  << cfg.router.sync_buffer_depth << ": latency " << r.run.latency() << " analytic "
                  << r.analytic_cycles << ", contention: " << r.contention);
        CHECK(r.correct);
        if (r.contention.empty()) {
          CHECK(r.run.latency() == r.analytic_cycles);
          ++exact;
        } else {
          ++contended;
          // Either way off the formula: a worm that waits adds cycles, and two that share
          // a link or the unit can have their tails taken in the other order than their
          // heads, so the batch is due at the earlier head's t_rm (up to 5 cycles under
          // here, 1 over); --exact then fails the run.
          CHECK(r.run.latency() + 5 >= r.analytic_cycles);
          CHECK(r.run.latency() <= r.analytic_cycles + 1);
          if (r.run.latency() != r.analytic_cycles) {
            ++off;
            // Caught here, not in CHECK_THROWS_AS: Catch's report would run on the frames
            // the throw unwound, where ASan keeps stale poison (forget_stale_stack_poison).
            bool refused = false;
            try {
              check_exact(p, x);
            } catch (const SimulationError&) {
              refused = true;
            }
            forget_stale_stack_poison();
            CHECK(refused);
          }
        }
      }
  // The seeds are fixed: these counts are what docs/reduction-hardware.md quotes.
  CHECK(exact == 136);
  CHECK(contended == 116);
  CHECK(off == 14);
}

TEST_CASE("in-network reduction: --exact names the reduction messages that compete for a port",
          "[reduction][allreduce][system][formula][exact]") {
  // Issue 36: 7x5, 10 random ranks (seed 3): (6,3)'s C-X (4,3) lies on its row and its C+Y
  // (5,4) does not, so both reduction routes enter (6,3) from -X and meet at (5,3); the
  // allreduce takes 2448 cycles against the formula's 2447.
  NetworkConfig cfg = make_config({7, 5});
  cfg.timing.trm = 54;
  cfg.router.sync_buffer_depth = 8;
  AllreduceParams p = btm("random:10", ReduceOp::Sum, ElementType::Int32, 1, 3);
  p.exact = true;
  const AllreduceExperimentResult x = run_allreduce_experiment(cfg, p);
  const AllreduceAlgorithmRun& r = x.runs.at(0);
  CHECK(r.correct);
  CHECK(r.analytic_cycles == 2447);
  CHECK(r.run.latency() == 2448);
  const std::string pair =
      "the arrival from (5,4) to (6,3) and the arrival from (4,3) to (6,3) both leave through +X of router (5,3) in one "
      "cycle";
  CHECK(r.contention == pair);
  CHECK_THROWS_WITH(check_exact(p, x), Catch::Contains("took 2448 cycles, the formula says 2447") &&
                                           Catch::Contains(pair) && Catch::Contains("reduction-hardware.md"));
  // A worm holds a link for L cycles: on 3x11 (26 random ranks, seed 1008437608006, 5
  // int32 elements: L = 12) the leaves (2,1) and (1,1) send to their parent (2,2) through
  // +Y of (2,1) two cycles apart, which a barrier's heads do without competing, but the
  // worms share the link, and the allreduce ends 4 cycles before the formula.
  NetworkConfig c311 = make_config({3, 11}, Timing{7, 1, 1, 83});
  c311.router.sync_buffer_depth = 4;
  AllreduceParams q = btm("random:26", ReduceOp::Sum, ElementType::Int32, 5, 1008437608006);
  q.exact = true;
  const AllreduceExperimentResult y = run_allreduce_experiment(c311, q);
  const BarrierTree tree = build_tree(BarrierScheme::BTM, c311.mesh, y.nodes);
  CHECK(tree.contention(c311.timing, 4).empty());
  CHECK(y.runs.at(0).contention ==
        "the arrival from (2,1) to (2,2) and the arrival from (1,1) to (2,2) both leave through +Y of router (2,1) in "
        "one cycle");
  CHECK(y.runs.at(0).analytic_cycles == 723);
  CHECK(y.runs.at(0).run.latency() == 719);
  CHECK_THROWS_WITH(check_exact(q, y), Catch::Contains("took 719 cycles, the formula says 723") &&
                                           Catch::Contains(y.runs.at(0).contention));
}

TEST_CASE("in-network reduction: reduce btm leaves the result at the root rank, the tree's or another",
          "[reduction][system]") {
  const NetworkConfig cfg = make_config({6, 6});
  const std::vector<NodeId> members = parse_members("random:11", cfg.mesh, 4);
  const BarrierTree tree = build_tree(BarrierScheme::BTM, cfg.mesh, members);
  const std::size_t tree_root = tree.rank_of(tree.root());
  const std::vector<ReduceVector> inputs = allreduce_inputs(ElementType::Float32, members.size(), 6, 2);
  const ReduceVector want = reduce_along_tree(tree, ReduceOp::Sum, ElementType::Float32, inputs);
  for (std::size_t root : {tree_root, (tree_root + 3) % members.size()}) {
    INFO("root rank " << root << ", the tree's " << tree_root);
    Machine m(cfg);
    const Communicator c = m.groups().create(cfg.mesh, members, BarrierScheme::BTM);
    std::vector<ReduceVector> got(members.size());
    for (std::size_t k = 0; k < members.size(); ++k)
      m.spawn("rank" + std::to_string(k), [&, k] {
        Node& node = m.node(members[k]);
        REQUIRE(join(node, c));
        got[k] = inputs[k];
        reduce(node, c, got[k], ReduceOp::Sum, ElementType::Float32, root, AllreduceAlgorithm::Btm);
      });
    m.run();
    for (std::size_t k = 0; k < members.size(); ++k) CHECK(got[k] == (k == root ? want : inputs[k]));
  }
}

TEST_CASE("in-network reduction: two communicators that share members reduce at the same time", "[reduction][system]") {
  // Members of both call A then B; the others call theirs at once, so the two groups'
  // reduction messages cross the same routers and links together.
  const NetworkConfig cfg = make_config({6, 6});
  Machine m(cfg);
  const std::vector<NodeId> a_nodes = parse_members("random:16", cfg.mesh, 7);
  const std::vector<NodeId> b_nodes = parse_members("random:16", cfg.mesh, 8);
  const Communicator a = m.groups().create(cfg.mesh, a_nodes, BarrierScheme::BTM);
  const Communicator b = m.groups().create(cfg.mesh, b_nodes, BarrierScheme::BTM);
  REQUIRE(std::count_if(a_nodes.begin(), a_nodes.end(), [&](NodeId n) { return b.contains(n); }) > 0);
  const auto inputs_a = allreduce_inputs(ElementType::Float32, a_nodes.size(), 7, 1);
  const auto inputs_b = allreduce_inputs(ElementType::Int64, b_nodes.size(), 3, 2);
  std::map<NodeId, ReduceVector> got_a, got_b;
  std::set<NodeId> all(a_nodes.begin(), a_nodes.end());
  all.insert(b_nodes.begin(), b_nodes.end());
  for (NodeId n : all)
    m.spawn("node" + std::to_string(n), [&, n] {
      Node& node = m.node(n);
      if (a.contains(n)) REQUIRE(join(node, a));
      if (b.contains(n)) REQUIRE(join(node, b));
      if (a.contains(n)) {
        got_a[n] = inputs_a[a.tree->rank_of(n)];
        allreduce(node, a, got_a[n], ReduceOp::Sum, ElementType::Float32, AllreduceAlgorithm::Btm);
      }
      if (b.contains(n)) {
        got_b[n] = inputs_b[b.tree->rank_of(n)];
        allreduce(node, b, got_b[n], ReduceOp::Min, ElementType::Int64, AllreduceAlgorithm::Btm);
      }
    });
  m.run();
  const ReduceVector want_a = reduce_along_tree(*a.tree, ReduceOp::Sum, ElementType::Float32, inputs_a);
  const ReduceVector want_b = reduce_along_tree(*b.tree, ReduceOp::Min, ElementType::Int64, inputs_b);
  REQUIRE(got_a.size() == a_nodes.size());
  REQUIRE(got_b.size() == b_nodes.size());
  for (const auto& [n, v] : got_a) CHECK(v == want_a);
  for (const auto& [n, v] : got_b) CHECK(v == want_b);
}

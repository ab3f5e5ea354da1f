// The software allreduce over the simulated mesh (docs/reduction.md): every rank's result
// equals its schedule run without a network, for every algorithm, type and size; the
// message and hop counts are the schedule's; the same seed gives the same cycles; and the
// zero-load latency of recursive doubling between two ranks is two messages apart.
#include <catch2/catch.hpp>

#include <algorithm>

#include "support/sim_helpers.hpp"
#include "sw/collective/adaptive_broadcast.hpp"
#include "sw/collective/member_spec.hpp"
#include "sw/runtime/experiments/allreduce_experiment.hpp"

using namespace meshsync;
using meshsync::test::make_config;

TEST_CASE("allreduce: every rank's result is its schedule's, over the network", "[allreduce][system]") {
  const NetworkConfig cfg = make_config({8, 8});
  for (const char* comm : {"random:2", "random:7", "random:16", "all"})
    for (ElementType t : kAllElementTypes)
      for (std::int64_t K : {1, 9}) {
        AllreduceParams p;
        p.comm = comm;
        p.type = t;
        p.op = t == ElementType::Float32 ? ReduceOp::Sum : ReduceOp::Xor;
        p.elements = K;
        p.seed = 4;
        const AllreduceExperimentResult x = run_allreduce_experiment(cfg, p);
        REQUIRE(x.runs.size() == 4);
        for (const AllreduceAlgorithmRun& r : x.runs) {
          INFO(comm << " " << element_type_name(t) << " K " << K << " " << allreduce_algorithm_name(r.algorithm));
          CHECK(r.correct);
          CHECK(r.problem.empty());
          CHECK(r.run.messages == r.schedule_messages);
          CHECK(r.run.latency() > 0);
        }
      }
}

TEST_CASE("allreduce: two ranks exchange once, the formula of two crossing messages", "[allreduce][system]") {
  const NetworkConfig cfg = make_config({4, 4});
  AllreduceParams p;
  p.comm = "0,0;3,2";
  p.algorithms = {AllreduceAlgorithm::RecursiveDoubling};
  p.elements = 3;
  const AllreduceExperimentResult x = run_allreduce_experiment(cfg, p);
  const auto& r = x.runs.at(0).run;
  // Both send at once (the message of 4 flits, 5 hops apart, on opposite directions of the
  // links): each rank is done when the other's message has arrived.
  CHECK(r.ranks[0].completion == zero_load_latency(cfg.timing, 5, 4));
  CHECK(r.ranks[1].completion == zero_load_latency(cfg.timing, 5, 4));
  CHECK(r.messages == 2);
  CHECK(r.hops == 10);
}

namespace {

AllreduceParams float_params() {
  AllreduceParams p;
  p.comm = "random:11";
  p.type = ElementType::Float32;
  p.elements = 20;
  return p;
}

}  // namespace

TEST_CASE("allreduce: deterministic for a seed", "[allreduce][system][determinism]") {
  const NetworkConfig cfg = make_config({6, 6});
  const AllreduceParams p = float_params();
  const AllreduceExperimentResult a = run_allreduce_experiment(cfg, p), b = run_allreduce_experiment(cfg, p);
  for (std::size_t i = 0; i < a.runs.size(); ++i) {
    CHECK(a.runs[i].run.latency() == b.runs[i].run.latency());
    CHECK(a.runs[i].run.results == b.runs[i].run.results);
  }
}

// Apart from the runs above: an exception caught in the test after a simulation in the
// same process trips ASan's stack checks (SystemC's coroutine stacks).
TEST_CASE("allreduce: bad input is refused before anything runs", "[allreduce][system][errors]") {
  const NetworkConfig cfg = make_config({6, 6});
  const AllreduceParams p = float_params();
  AllreduceParams bad = p;
  bad.op = ReduceOp::And;
  CHECK_THROWS_AS(run_allreduce_experiment(cfg, bad), ConfigError);
  bad = p;
  bad.elements = 0;
  CHECK_THROWS_AS(run_allreduce_experiment(cfg, bad), ConfigError);
  bad = p;
  bad.type = ElementType::Int64;
  bad.elements = 40000;  // 80,000 words: more than a worm carries
  CHECK_THROWS_AS(run_allreduce_experiment(cfg, bad), ConfigError);
  bad = p;
  bad.comm = "1,1";
  CHECK_THROWS_AS(run_allreduce_experiment(cfg, bad), ConfigError);
  bad = p;
  bad.algorithms = {AllreduceAlgorithm::Ring, AllreduceAlgorithm::Ring};
  CHECK_THROWS_AS(run_allreduce_experiment(cfg, bad), ConfigError);
}

TEST_CASE("allreduce: members call allreduce and reduce on a communicator from their threads",
          "[allreduce][system]") {
  const NetworkConfig cfg = make_config({6, 6});
  Machine m(cfg);
  const std::vector<NodeId> members = parse_members("random:9", cfg.mesh, 3);
  const Communicator c = m.groups().create(cfg.mesh, members, BarrierScheme::BTM);
  const std::vector<ReduceVector> inputs = allreduce_inputs(ElementType::Int64, members.size(), 5, 8);
  const ReduceVector want = reduce_in_rank_order(ReduceOp::Sum, ElementType::Int64, inputs);
  std::vector<ReduceVector> all(members.size()), to_root(members.size());
  for (std::size_t k = 0; k < members.size(); ++k)
    m.spawn("rank" + std::to_string(k), [&, k] {
      Node& node = m.node(members[k]);
      all[k] = inputs[k];
      allreduce(node, c, all[k], ReduceOp::Sum, ElementType::Int64, AllreduceAlgorithm::RecursiveDoubling);
      to_root[k] = inputs[k];
      reduce(node, c, to_root[k], ReduceOp::Sum, ElementType::Int64, 4);
    });
  m.run();
  for (std::size_t k = 0; k < members.size(); ++k) CHECK(all[k] == want);
  CHECK(to_root[4] == want);
  Machine other(cfg);
  const Communicator c2 = other.groups().create(cfg.mesh, members, BarrierScheme::BTM);
  NodeId outsider = 0;
  while (std::find(members.begin(), members.end(), outsider) != members.end()) ++outsider;
  other.spawn("outsider", [&] {
    ReduceVector v(2);
    CHECK_THROWS_AS(allreduce(other.node(outsider), c2, v, ReduceOp::Sum, ElementType::Int32, AllreduceAlgorithm::Ring),
                    ConfigError);
    ReduceVector odd(3);
    CHECK_THROWS_AS(reduce(other.node(members[0]), c2, odd, ReduceOp::Sum, ElementType::Int64, 0), ConfigError);
  });
  other.run();
}

TEST_CASE("allreduce: the first rank to make a call sets it, calls every rank made are forgotten",
          "[allreduce][errors]") {
  CollectiveCalls calls(1, 2);
  calls.check_and_record(0, "a");
  calls.check_and_record(1, "a");  // made by both: forgotten
  calls.check_and_record(1, "b");  // rank 1 is first to make call 2
  CHECK_THROWS_WITH(calls.check_and_record(0, "c"),
                    "rank 0 calls \"c\" as its call 2 on group 1, where rank 1 called \"b\": every rank must make "
                    "the same call");
  calls.check_and_record(0, "b");
  calls.check_and_record(0, "d");
  CHECK_THROWS_WITH(calls.check_and_record(1, "e"), Catch::Contains("its call 3") && Catch::Contains("\"d\""));
}

TEST_CASE("allreduce: a rank calling with another operation is told so before it sends, and can call again",
          "[allreduce][system][errors]") {
  const NetworkConfig cfg = make_config({4, 4});
  Machine m(cfg);
  const std::vector<NodeId> members = {0, 5, 10, 15};
  const Communicator c = m.groups().create(cfg.mesh, members, BarrierScheme::BTM);
  const std::vector<ReduceVector> inputs = allreduce_inputs(ElementType::Int32, members.size(), 3, 8);
  const ReduceVector want = reduce_in_rank_order(ReduceOp::Sum, ElementType::Int32, inputs);
  std::vector<ReduceVector> got = inputs;
  std::string refused;
  for (std::size_t k = 0; k < members.size(); ++k)
    m.spawn("rank" + std::to_string(k), [&, k] {
      Node& node = m.node(members[k]);
      if (k == 3) {
        // After the others have made their call: theirs is the one recorded.
        sc_core::wait(sc_core::SC_ZERO_TIME);
        ReduceVector wrong = inputs[k];
        try {
          allreduce(node, c, wrong, ReduceOp::Max, ElementType::Int32, AllreduceAlgorithm::Ring);
        } catch (const ConfigError& e) {
          refused = e.what();
        }
        CHECK(wrong == inputs[k]);  // nothing was combined
      }
      allreduce(node, c, got[k], ReduceOp::Sum, ElementType::Int32, AllreduceAlgorithm::Ring);
    });
  m.run();
  CHECK(refused ==
        "rank 3 calls \"allreduce max of 3 int32 elements (ring)\" as its call 1 on group " + std::to_string(c.gid) +
            ", where rank 0 called \"allreduce sum of 3 int32 elements (ring)\": every rank must make the same call");
  for (std::size_t k = 0; k < members.size(); ++k) CHECK(got[k] == want);
}

// The software allreduce over the simulated mesh (docs/reduction.md): every rank's result
// equals its schedule run without a network, for every algorithm, type and size; the
// message and hop counts are the schedule's; the same seed gives the same cycles; and the
// zero-load latency of recursive doubling between two ranks is two messages apart.
#include <catch2/catch.hpp>

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
        REQUIRE(x.runs.size() == 3);
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

TEST_CASE("allreduce: deterministic for a seed; bad input is refused", "[allreduce][system][errors]") {
  const NetworkConfig cfg = make_config({6, 6});
  AllreduceParams p;
  p.comm = "random:11";
  p.type = ElementType::Float32;
  p.elements = 20;
  const AllreduceExperimentResult a = run_allreduce_experiment(cfg, p), b = run_allreduce_experiment(cfg, p);
  for (std::size_t i = 0; i < a.runs.size(); ++i) {
    CHECK(a.runs[i].run.latency() == b.runs[i].run.latency());
    CHECK(a.runs[i].run.results == b.runs[i].run.results);
  }
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

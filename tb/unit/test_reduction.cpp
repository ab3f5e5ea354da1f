// Reductions (docs/reduction.md): the operations on 32- and 64-bit integers (wrap-around,
// signed comparisons) and float32 (IEEE minimum and maximum), and the software allreduce
// schedules: their message counts, and that every rank ends with the reduction of all
// inputs for every communicator size, vector length and operation.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "model/core/errors.hpp"
#include "model/core/random.hpp"
#include "sw/collective/reduction.hpp"

using namespace meshsync;

namespace {

std::uint32_t word(float f) { return word_of(f); }
float value(std::uint32_t w) { return float32_of(w); }

ReduceVector one(ReduceOp op, ElementType t, ReduceVector a, const ReduceVector& b) {
  combine(op, t, a, b, 0, a.size() / words_per_element(t));
  return a;
}

ReduceVector int64s(std::int64_t v) {
  const auto u = static_cast<std::uint64_t>(v);
  return {static_cast<std::uint32_t>(u), static_cast<std::uint32_t>(u >> 32)};
}

}  // namespace

TEST_CASE("reduction: integers wrap around and compare as signed", "[unit][reduction]") {
  const auto i32 = [](std::int32_t v) { return ReduceVector{static_cast<std::uint32_t>(v)}; };
  const std::int32_t max32 = std::numeric_limits<std::int32_t>::max();
  CHECK(one(ReduceOp::Sum, ElementType::Int32, i32(max32), i32(1)) == i32(std::numeric_limits<std::int32_t>::min()));
  CHECK(one(ReduceOp::Min, ElementType::Int32, i32(-5), i32(3)) == i32(-5));
  CHECK(one(ReduceOp::Max, ElementType::Int32, i32(-5), i32(3)) == i32(3));
  CHECK(one(ReduceOp::And, ElementType::Int32, i32(0b1100), i32(0b1010)) == i32(0b1000));
  CHECK(one(ReduceOp::Or, ElementType::Int32, i32(0b1100), i32(0b1010)) == i32(0b1110));
  CHECK(one(ReduceOp::Xor, ElementType::Int32, i32(0b1100), i32(0b1010)) == i32(0b0110));
  // 64-bit: the carry crosses the words; the high word decides the sign.
  CHECK(one(ReduceOp::Sum, ElementType::Int64, int64s(0xFFFFFFFF), int64s(1)) == int64s(0x100000000));
  CHECK(one(ReduceOp::Sum, ElementType::Int64, int64s(std::numeric_limits<std::int64_t>::max()), int64s(1)) ==
        int64s(std::numeric_limits<std::int64_t>::min()));
  CHECK(one(ReduceOp::Min, ElementType::Int64, int64s(-1), int64s(0x7FFFFFFF00000000)) == int64s(-1));
  CHECK(one(ReduceOp::Max, ElementType::Int64, int64s(-1), int64s(2)) == int64s(2));
}

TEST_CASE("reduction: float32 sums round, min and max follow IEEE 754-2019", "[unit][reduction]") {
  const auto f = [](float v) { return ReduceVector{word(v)}; };
  CHECK(value(one(ReduceOp::Sum, ElementType::Float32, f(1.5f), f(2.25f))[0]) == 3.75f);
  // Rounding makes the order matter: (1e8 + 1) - 1e8 is 0 in single precision.
  CHECK(value(one(ReduceOp::Sum, ElementType::Float32, f(1e8f), f(1.0f))[0]) == 1e8f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(value(one(ReduceOp::Min, ElementType::Float32, f(nan), f(1.0f))[0])));
  CHECK(std::isnan(value(one(ReduceOp::Max, ElementType::Float32, f(1.0f), f(nan))[0])));
  // Any NaN result is the one quiet NaN, whatever the operand's payload and sign.
  CHECK(one(ReduceOp::Sum, ElementType::Float32, {0xffc01234u}, f(1.0f))[0] == kQuietNaN);
  CHECK(one(ReduceOp::Min, ElementType::Float32, f(1.0f), {0x7f800001u})[0] == kQuietNaN);
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(one(ReduceOp::Sum, ElementType::Float32, f(inf), f(-inf))[0] == kQuietNaN);
  CHECK(std::signbit(value(one(ReduceOp::Min, ElementType::Float32, f(0.0f), f(-0.0f))[0])));
  CHECK_FALSE(std::signbit(value(one(ReduceOp::Max, ElementType::Float32, f(-0.0f), f(0.0f))[0])));
  CHECK(value(one(ReduceOp::Min, ElementType::Float32, f(-2.0f), f(1.0f))[0]) == -2.0f);
  CHECK_THROWS_AS(check_reduction(ReduceOp::Xor, ElementType::Float32), ConfigError);
  CHECK_NOTHROW(check_reduction(ReduceOp::Xor, ElementType::Int64));
}

TEST_CASE("reduction: the schedules' messages", "[unit][reduction]") {
  for (std::size_t P : {2u, 4u, 8u, 16u, 64u}) {
    std::size_t log2 = 0;
    while ((std::size_t{1} << log2) < P) ++log2;
    CHECK(allreduce_schedule(AllreduceAlgorithm::RecursiveDoubling, P, 5).messages() == P * log2);
  }
  // Not a power of two: the 2r paired ranks add two messages a pair (13 = 8 + 5: 10 of them).
  CHECK(allreduce_schedule(AllreduceAlgorithm::RecursiveDoubling, 13, 5).messages() == 8 * 3 + 2 * 5);
  for (std::size_t P : {2u, 3u, 7u, 16u})
    CHECK(allreduce_schedule(AllreduceAlgorithm::Ring, P, 100).messages() == 2 * P * (P - 1));
  for (std::size_t P : {2u, 3u, 7u, 16u, 33u})
    CHECK(allreduce_schedule(AllreduceAlgorithm::BinomialBroadcast, P, 1).messages() == 2 * (P - 1));
}

TEST_CASE("reduction: every schedule leaves the exact reduction at every rank", "[unit][reduction]") {
  for (AllreduceAlgorithm a : kSoftwareAllreduceAlgorithms)
    for (std::size_t P = 2; P <= 33; ++P)
      for (std::size_t K : {1u, 3u, 40u})
        for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max, ReduceOp::Xor})
          for (ElementType t : {ElementType::Int32, ElementType::Int64}) {
            Random rng(P * 131 + K);
            std::vector<ReduceVector> in(P, ReduceVector(K * words_per_element(t)));
            for (auto& v : in)
              for (auto& w : v) w = static_cast<std::uint32_t>(rng.below(std::uint64_t{1} << 32));
            const ReduceSchedule s = allreduce_schedule(a, P, K);
            const std::vector<ReduceVector> out = evaluate(s, op, t, in);
            INFO(allreduce_algorithm_name(a) << " P " << P << " K " << K << " " << reduce_op_name(op) << " "
                                             << element_type_name(t));
            const ReduceVector want = reduce_in_rank_order(op, t, in);
            for (const ReduceVector& v : out) REQUIRE(v == want);
          }
}

TEST_CASE("reduction: a float32 schedule gives every rank the same bits", "[unit][reduction]") {
  for (AllreduceAlgorithm a : kSoftwareAllreduceAlgorithms)
    for (std::size_t P : {2u, 5u, 12u, 16u}) {
      Random rng(P);
      std::vector<ReduceVector> in(P, ReduceVector(17));
      for (auto& v : in)
        for (auto& w : v) w = word(static_cast<float>(rng.below(1u << 24)) / 1024.0f - 8192.0f);
      const std::vector<ReduceVector> out = evaluate(allreduce_schedule(a, P, 17), ReduceOp::Sum, ElementType::Float32, in);
      const ReduceVector exact = reduce_in_rank_order(ReduceOp::Sum, ElementType::Float32, in);
      INFO(allreduce_algorithm_name(a) << " P " << P);
      for (const ReduceVector& v : out) {
        CHECK(v == out[0]);
        for (std::size_t i = 0; i < v.size(); ++i) CHECK(value(v[i]) == Approx(value(exact[i])).margin(0.01));
      }
    }
}

TEST_CASE("reduction: a reduce leaves the reduction at its root, whichever rank that is", "[unit][reduction]") {
  for (std::size_t P : {2u, 5u, 8u, 13u})
    for (std::size_t root = 0; root < P; ++root) {
      Random rng(P + root);
      std::vector<ReduceVector> in(P, ReduceVector(6));
      for (auto& v : in)
        for (auto& w : v) w = static_cast<std::uint32_t>(rng.below(std::uint64_t{1} << 32));
      const ReduceSchedule s = reduce_schedule(P, 6, root);
      CHECK(s.messages() == P - 1);
      const std::vector<ReduceVector> out = evaluate(s, ReduceOp::Sum, ElementType::Int32, in);
      INFO("P " << P << " root " << root);
      CHECK(out[root] == reduce_in_rank_order(ReduceOp::Sum, ElementType::Int32, in));
    }
}

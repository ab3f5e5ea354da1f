// The reduction ALU (rtl/meshsync_reduction_alu.sv) against the software's combine
// (model/core/reduction_element.cpp): a reduction in the routers must give, bit for bit, what
// the reference computed in the program gives. Random operands from a fixed seed, and the
// float32 values where a sum is easy to get wrong: zeros of both signs, subnormals, the
// smallest normal, the largest finite value, infinities, NaNs with payloads, and pairs
// whose sum rounds at a tie.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "Vreduction_alu.h"
#include "Vreduction_alu_int32.h"
#include "model/core/reduction_element.hpp"
#include "model/cosim/coverage.hpp"

using namespace meshsync;

namespace {

// One combine of two elements, as the software computes it (int64 as two words).
std::uint64_t reference(ReduceOp op, ElementType t, std::uint64_t a, std::uint64_t b) {
  ReduceVector x{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32)};
  const ReduceVector y{static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
  combine(op, t, x, y, 0, 1);
  return t == ElementType::Int64 ? (std::uint64_t{x[1]} << 32 | x[0]) : x[0];
}

template <class Model>
struct AluOf {
  // A context of its own, whose coverage is written while the model exists.
  VerilatedContext ctx;
  Model alu{&ctx};
  ~AluOf() { rtl::write_coverage(ctx, "reduction_alu"); }
  std::uint64_t operator()(ReduceOp op, ElementType t, std::uint64_t a, std::uint64_t b) {
    alu.op_i = static_cast<std::uint8_t>(op);
    alu.type_i = static_cast<std::uint8_t>(t);
    alu.a_i = a;
    alu.b_i = b;
    alu.eval();
    return alu.result_o;
  }
};
using Alu = AluOf<Vreduction_alu>;

std::vector<std::uint32_t> float_specials() {
  std::vector<std::uint32_t> v = {
      0x00000000, 0x80000000,  // +0, -0
      0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000,  // subnormals
      0x00800000, 0x80800000, 0x00800001,                          // smallest normals
      0x3f800000, 0xbf800000, 0x3f800001, 0x33800000, 0x33800001, 0xb3800000,  // 1, ulp/2 ties
      0x4b7fffff, 0x4b800000, 0x3fffffff,                          // near 2^24
      0x7f7fffff, 0xff7fffff, 0x7f7ffffe,                          // largest finite
      0x7f800000, 0xff800000,                                      // infinities
      0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc01234, 0xff812345,  // NaNs
      0x33000000, 0xb3000000,  // 2^-25: 1 -/+ it is a tie across a binade
      0x73000000, 0xf3000000,  // half an ulp of the largest finite: rounds to infinity
  };
  return v;
}

}  // namespace

TEST_CASE("reduction ALU: integers as the software's combine", "[rtl][reduction]") {
  Alu alu;
  std::mt19937_64 rng(24);
  const std::uint64_t edges[] = {0, 1, ~0ull, 0x7fffffffull, 0x80000000ull, 0xffffffffull,
                                 0x7fffffffffffffffull, 0x8000000000000000ull};
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
  for (std::uint64_t a : edges)
    for (std::uint64_t b : edges) pairs.emplace_back(a, b);
  for (int i = 0; i < 20000; ++i) pairs.emplace_back(rng(), rng());
  for (ElementType t : {ElementType::Int32, ElementType::Int64})
    for (ReduceOp op : kAllReduceOps)
      for (auto [a, b] : pairs) {
        // int32 operands are one word; the ALU ignores the upper word.
        const std::uint64_t ra = t == ElementType::Int32 ? (a & 0xffffffffu) : a;
        const std::uint64_t rb = t == ElementType::Int32 ? (b & 0xffffffffu) : b;
        const std::uint64_t got = alu(op, t, a, b);
        if (got != reference(op, t, ra, rb) || alu.alu.error_o) {
          INFO(reduce_op_name(op) << " " << element_type_name(t) << " " << std::hex << a << " " << b);
          CHECK(got == reference(op, t, ra, rb));
          CHECK_FALSE(alu.alu.error_o);
          return;
        }
      }
}

TEST_CASE("reduction ALU: float32 bit for bit as the software's combine", "[rtl][reduction]") {
  Alu alu;
  std::mt19937_64 rng(24);
  const std::vector<std::uint32_t> specials = float_specials();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::uint32_t a : specials)
    for (std::uint32_t b : specials) pairs.emplace_back(a, b);
  // Random words (every class), and random pairs of close exponents, where cancellation
  // and rounding happen.
  for (int i = 0; i < 200000; ++i) {
    const auto a = static_cast<std::uint32_t>(rng());
    auto b = static_cast<std::uint32_t>(rng());
    if (i % 2) b = (a & 0xff800000u) ^ (b & 0x807fffffu) ^ ((b >> 9 & 3u) << 23);
    pairs.emplace_back(a, b);
  }
  // Exponents 22 to 28 apart: the smaller operand partly or wholly in the sticky bit.
  for (int i = 0; i < 20000; ++i) {
    const auto a = static_cast<std::uint32_t>(rng());
    const std::uint32_t ea = a >> 23 & 0xffu, gap = 22 + static_cast<std::uint32_t>(rng() % 7);
    if (ea <= gap || ea == 0xffu) continue;
    const auto b = (static_cast<std::uint32_t>(rng()) & 0x807fffffu) | (ea - gap) << 23;
    pairs.emplace_back(a, b);
  }
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max})
    for (auto [a, b] : pairs) {
      const std::uint64_t got = alu(op, ElementType::Float32, a, b);
      const std::uint64_t want = reference(op, ElementType::Float32, a, b);
      if (got != want || alu.alu.error_o) {
        INFO(reduce_op_name(op) << " " << std::hex << a << " " << b << ": RTL " << got << ", software " << want);
        CHECK(got == want);
        CHECK_FALSE(alu.alu.error_o);
        return;
      }
    }
}

TEST_CASE("reduction ALU: a bitwise operation on float32 is an error, never a result", "[rtl][reduction]") {
  Alu alu;
  for (ReduceOp op : {ReduceOp::And, ReduceOp::Or, ReduceOp::Xor}) {
    CHECK(alu(op, ElementType::Float32, 0x3f800000u, 0x40000000u) == 0);
    CHECK(alu.alu.error_o);
  }
  CHECK(alu(ReduceOp::Sum, ElementType::Float32, 0x3f800000u, 0x40000000u) == 0x40400000u);
  CHECK_FALSE(alu.alu.error_o);
}

TEST_CASE("reduction ALU: built for int32 alone, it computes int32 and refuses the rest", "[rtl][reduction]") {
  AluOf<Vreduction_alu_int32> alu;
  std::mt19937_64 rng(32);
  for (ReduceOp op : kAllReduceOps)
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t a = rng() & 0xffffffffu, b = rng() & 0xffffffffu;
      const std::uint64_t got = alu(op, ElementType::Int32, a, b);
      if (got != reference(op, ElementType::Int32, a, b) || alu.alu.error_o) {
        INFO(reduce_op_name(op) << " " << std::hex << a << " " << b);
        CHECK(got == reference(op, ElementType::Int32, a, b));
        CHECK_FALSE(alu.alu.error_o);
        return;
      }
    }
  CHECK(alu(ReduceOp::Sum, ElementType::Int64, 1, 2) == 0);
  CHECK(alu.alu.error_o);
  CHECK(alu(ReduceOp::Sum, ElementType::Float32, 0x3f800000u, 0x3f800000u) == 0);
  CHECK(alu.alu.error_o);
}

TEST_CASE("reduction ALU: an operation or element type code beyond the table is an error, never a result",
          "[rtl][reduction]") {
  // The barrier unit refuses such a descriptor before it reaches the ALU (its error row);
  // the ALU still answers for every code its three and two bits can carry.
  Alu alu;
  const auto raw = [&](unsigned op, unsigned type) {
    alu.alu.op_i = static_cast<std::uint8_t>(op);
    alu.alu.type_i = static_cast<std::uint8_t>(type);
    alu.alu.a_i = 5;
    alu.alu.b_i = 7;
    alu.alu.eval();
    INFO("operation code " << op << ", type code " << type);
    CHECK(alu.alu.error_o);
    CHECK(alu.alu.result_o == 0);
  };
  for (unsigned type = 0; type < 3; ++type)
    for (unsigned op = 6; op < 8; ++op) raw(op, type);
  for (unsigned op = 0; op < 8; ++op) raw(op, 3);
}

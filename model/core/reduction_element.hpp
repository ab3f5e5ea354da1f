// The element arithmetic of a reduction (issue 24): operations, element types and the
// combine of two vectors, element by element on 32-bit message words. It is what the
// routers' reduction ALU computes (rtl/meshsync_reduction_alu.sv, tested bit for bit
// against combine) and what software reductions compute, so it lives in the core that
// both use. docs/reduction.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace meshsync {

enum class ReduceOp { Sum, Min, Max, And, Or, Xor };
enum class ElementType { Int32, Int64, Float32 };
inline constexpr ReduceOp kAllReduceOps[] = {ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max,
                                             ReduceOp::And, ReduceOp::Or,  ReduceOp::Xor};
inline constexpr ElementType kAllElementTypes[] = {ElementType::Int32, ElementType::Int64, ElementType::Float32};
std::string reduce_op_name(ReduceOp op);        // "sum", "min", ...
std::string element_type_name(ElementType t);   // "int32", "int64", "float32"
// 32-bit words per element: 1, 2 (low word first), 1.
std::size_t words_per_element(ElementType t);
// Throws ConfigError (one line) for an operation the type does not have (and, or, xor
// on float32).
void check_reduction(ReduceOp op, ElementType t);

// A vector of elements as message words.
using ReduceVector = std::vector<std::uint32_t>;

// The float32 a NaN result always is (the quiet NaN, positive, no payload): the combine
// gives it for any NaN operand and for inf - inf, in software and in the routers' ALU.
inline constexpr std::uint32_t kQuietNaN = 0x7fc00000u;

// An element's value from its words, and a float32's word: what the combine reads and
// writes, and what outputs and inputs are made of.
float float32_of(std::uint32_t word);
std::uint32_t word_of(float f);
std::int64_t int64_of(const std::uint32_t* words);  // low word first

// Element by element: into = combine(first, second), over `elements` elements starting at
// element `from` of both. Integers wrap around (two's complement); min and max compare as
// signed. float32 follows IEEE 754-2019: a sum in single precision, minimum and maximum
// with a NaN giving NaN and -0 below +0, every NaN result kQuietNaN. Only a float32 sum
// of three or more operands depends on their order: on how they associate, by rounding.
void combine(ReduceOp op, ElementType t, ReduceVector& into, const ReduceVector& second, std::size_t from,
             std::size_t elements);

}  // namespace meshsync

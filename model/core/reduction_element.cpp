#include "reduction_element.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "errors.hpp"

namespace meshsync {

std::string reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Min: return "min";
    case ReduceOp::Max: return "max";
    case ReduceOp::And: return "and";
    case ReduceOp::Or: return "or";
    case ReduceOp::Xor: return "xor";
  }
  return "?";
}

std::string element_type_name(ElementType t) {
  switch (t) {
    case ElementType::Int32: return "int32";
    case ElementType::Int64: return "int64";
    case ElementType::Float32: return "float32";
  }
  return "?";
}

std::size_t words_per_element(ElementType t) { return t == ElementType::Int64 ? 2 : 1; }

void check_reduction(ReduceOp op, ElementType t) {
  if (t == ElementType::Float32 && (op == ReduceOp::And || op == ReduceOp::Or || op == ReduceOp::Xor))
    throw ConfigError("--op " + reduce_op_name(op) + " is for integers, not float32 (sum, min or max)");
}

namespace {

template <class T>
T integer_op(ReduceOp op, T a, T b) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    // Two's complement wrap-around: the sum in the unsigned type, converted back.
    case ReduceOp::Sum: return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    case ReduceOp::Min: return a < b ? a : b;
    case ReduceOp::Max: return a < b ? b : a;
    case ReduceOp::And: return a & b;
    case ReduceOp::Or: return a | b;
    case ReduceOp::Xor: return a ^ b;
  }
  return a;
}

// A sum of non-NaN operands is NaN only for inf - inf, where x86 gives its default NaN
// 0xffc00000 (negative): the result is kQuietNaN, as the routers' ALU gives, whatever the
// host.
float canonical_nan(float f) { return std::isnan(f) ? float32_of(kQuietNaN) : f; }

float float_op(ReduceOp op, float a, float b) {
  // A NaN operand's payload and sign are not passed on (the ALU carries none).
  if (std::isnan(a) || std::isnan(b)) return float32_of(kQuietNaN);
  switch (op) {
    case ReduceOp::Sum: return canonical_nan(a + b);
    // IEEE 754-2019 minimum and maximum: NaN wins, and -0 < +0 (std::fmin would drop the NaN).
    case ReduceOp::Min:
      if (a == b) return std::signbit(a) ? a : b;
      return a < b ? a : b;
    case ReduceOp::Max:
      if (a == b) return std::signbit(a) ? b : a;
      return a < b ? b : a;
    default: throw std::logic_error("float32 has no " + reduce_op_name(op));
  }
}

}  // namespace

float float32_of(std::uint32_t word) {
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f;
}

std::uint32_t word_of(float f) {
  std::uint32_t w;
  std::memcpy(&w, &f, sizeof w);
  return w;
}

std::int64_t int64_of(const std::uint32_t* words) {
  return static_cast<std::int64_t>(std::uint64_t{words[0]} | std::uint64_t{words[1]} << 32);
}

void combine(ReduceOp op, ElementType t, ReduceVector& into, const ReduceVector& second, std::size_t from,
             std::size_t elements) {
  const std::size_t w = words_per_element(t);
  if ((from + elements) * w > into.size() || (from + elements) * w > second.size())
    throw std::logic_error("combine: elements beyond the vectors");
  for (std::size_t e = from; e < from + elements; ++e) {
    std::uint32_t* a = &into[e * w];
    const std::uint32_t* b = &second[e * w];
    switch (t) {
      case ElementType::Int32:
        a[0] = static_cast<std::uint32_t>(integer_op(op, static_cast<std::int32_t>(a[0]), static_cast<std::int32_t>(b[0])));
        break;
      case ElementType::Int64: {
        const auto r = static_cast<std::uint64_t>(integer_op(op, int64_of(a), int64_of(b)));
        a[0] = static_cast<std::uint32_t>(r);
        a[1] = static_cast<std::uint32_t>(r >> 32);
        break;
      }
      case ElementType::Float32: a[0] = word_of(float_op(op, float32_of(a[0]), float32_of(b[0]))); break;
    }
  }
}

}  // namespace meshsync

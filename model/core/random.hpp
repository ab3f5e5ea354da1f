// Portable random draws: a seed gives the same sequence with any standard library.
// The standard fixes std::mt19937_64's output bit for bit (seeding included), but not
// what std::uniform_int_distribution, bernoulli_distribution, geometric_distribution,
// uniform_real_distribution or std::shuffle make of it. So the engine is the standard
// one and every draw from it is written out here. Random is deliberately not a
// UniformRandomBitGenerator: it cannot be handed to a std distribution by mistake.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

namespace meshsync {

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  // 64 raw bits: one engine output.
  std::uint64_t bits() { return engine_(); }

  // Uniform integer in [0, n), n >= 1. Draws below 2^64 mod n are rejected, which
  // leaves a whole number of runs of n residues (OpenBSD's arc4random_uniform). Chosen
  // over Lemire's multiply because it needs no 128-bit integer, and because an accepted
  // draw is plain `bits() % n`: what was drawn with `rng() % n` before (member lists)
  // stays the same unless a draw is rejected, at odds of n / 2^64.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t rejected = (0 - n) % n;  // 2^64 mod n
    for (;;)
      if (const std::uint64_t x = bits(); x >= rejected) return x % n;
  }

  // Uniform real in [0, 1): the top 53 bits as a double's mantissa, exact.
  double real() { return static_cast<double>(bits() >> 11) * 0x1.0p-53; }

  // `n` uniform bytes, one draw each: a message's contents.
  std::vector<std::uint8_t> bytes(std::size_t n) {
    std::vector<std::uint8_t> out(n);
    for (std::uint8_t& x : out) x = static_cast<std::uint8_t>(below(256));
    return out;
  }

  // True with probability p: one draw, never for p <= 0, always for p >= 1.
  bool bernoulli(double p) { return real() < p; }

  // Failures before the first success of Bernoulli(p) trials, p in (0, 1]: inversion,
  // floor(log(u) / log(1 - p)) with u uniform in (0, 1] (never 0, so the log is finite),
  // one draw, or none for p >= 1. Unlike the other draws this one leans on the C library:
  // C++ does not require std::log / std::log1p to be correctly rounded. glibc, musl and
  // Apple's libm are within about half an ULP of it, so two libraries can only disagree
  // when the quotient lies within a few ULPs of an integer: odds of about 1e-16 / p a draw.
  std::uint64_t geometric(double p) {
    if (p >= 1.0) return 0;
    const double u = static_cast<double>((bits() >> 11) + 1) * 0x1.0p-53;
    const double g = std::floor(std::log(u) / std::log1p(-p));
    constexpr double kBeyond = 0x1.0p64;  // reached only for p below about 2e-18
    return g < kBeyond ? static_cast<std::uint64_t>(g) : std::numeric_limits<std::uint64_t>::max();
  }

  // The cycle of a Bernoulli(p) process's next event after `cycle`: 1 + geometric(p)
  // cycles later, saturating at 2^64 - 1 (never), so that a gap drawn from a tiny p
  // cannot wrap around to an early cycle.
  std::uint64_t next_event(std::uint64_t cycle, double p) { return saturating_add(saturating_add(cycle, 1), geometric(p)); }

  static std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a ? std::numeric_limits<std::uint64_t>::max() : a + b;
  }

  // Fisher-Yates stopped after k steps: [first, first + k) is then a uniform random pick
  // of k of the elements, in uniform random order; the rest hold the others. One draw a
  // step.
  template <class It>
  void partial_shuffle(It first, It last, std::uint64_t k) {
    const auto n = static_cast<std::uint64_t>(std::distance(first, last));
    using Diff = typename std::iterator_traits<It>::difference_type;
    for (std::uint64_t i = 0; i < k && i < n; ++i)
      std::iter_swap(first + static_cast<Diff>(i), first + static_cast<Diff>(i + below(n - i)));
  }

  template <class It>
  void shuffle(It first, It last) {
    partial_shuffle(first, last, static_cast<std::uint64_t>(std::distance(first, last)));
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace meshsync

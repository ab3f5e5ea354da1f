// The portable random draws (model/core/random.hpp): golden sequences for fixed seeds,
// so a change of library or of the draws that alters a seeded run fails here first, and
// the properties each draw promises.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <vector>

#include "model/core/random.hpp"

using namespace meshsync;

namespace {
template <class T, class Draw>
std::vector<T> draws(std::size_t n, Draw draw) {
  std::vector<T> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<T>(draw()));
  return v;
}

std::vector<int> iota_vector(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}
}  // namespace

TEST_CASE("random: the engine is the standard's mt19937_64", "[random]") {
  // [rand.predef]: the 10000th output of a default-seeded (5489) mt19937_64.
  Random r(5489);
  for (int i = 1; i < 10000; ++i) r.bits();
  CHECK(r.bits() == 9981545732273789042u);
}

TEST_CASE("random: golden draws for fixed seeds", "[random]") {
  Random a(1);
  CHECK(draws<std::uint64_t>(3, [&] { return a.bits(); }) ==
        std::vector<std::uint64_t>{2469588189546311528u, 2516265689700432462u, 8323445853463659930u});
  Random b(1);
  CHECK(draws<std::uint64_t>(8, [&] { return b.below(10); }) ==
        std::vector<std::uint64_t>{8, 2, 0, 6, 4, 9, 8, 5});
  Random c(2);
  CHECK(draws<double>(4, [&] { return c.real(); }) ==
        std::vector<double>{0x1.cea52fda13031p-1, 0x1.b35226bab5f65p-1, 0x1.9150ea81acea6p-1,
                            0x1.d9c329b6d9b85p-1});
  Random d(3);
  CHECK(draws<int>(12, [&] { return d.bernoulli(0.3); }) ==
        std::vector<int>{0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0});
  Random e(4);
  CHECK(draws<std::uint64_t>(8, [&] { return e.geometric(0.025); }) ==
        std::vector<std::uint64_t>{9, 31, 20, 109, 23, 113, 6, 128});
  Random f(5);
  std::vector<int> v = iota_vector(10);
  f.shuffle(v.begin(), v.end());
  CHECK(v == std::vector<int>{2, 5, 0, 9, 6, 7, 3, 8, 1, 4});
  Random g(6);
  v = iota_vector(10);
  g.partial_shuffle(v.begin(), v.end(), 3);
  CHECK(v == std::vector<int>{0, 7, 5, 3, 4, 2, 6, 1, 8, 9});
}

TEST_CASE("random: below(n) stays below n and hits every value", "[random]") {
  Random r(7);
  for (std::uint64_t n = 1; n <= 12; ++n) {
    INFO("n " << n);
    std::vector<int> seen(n, 0);
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t x = r.below(n);
      REQUIRE(x < n);
      ++seen[x];
    }
    CHECK(std::count(seen.begin(), seen.end(), 0) == 0);
  }
}

TEST_CASE("random: below(n) rejects the draws below 2^64 mod n", "[random]") {
  // For n = 2^63 + 1, 2^64 mod n = 2^63 - 1: about half of all draws are rejected.
  const std::uint64_t n = (std::uint64_t{1} << 63) + 1, rejected = n - 2;
  Random r(1), raw(1);
  for (int i = 0; i < 20; ++i) {
    std::uint64_t x = raw.bits();
    while (x < rejected) x = raw.bits();
    CHECK(r.below(n) == x % n);
  }
}

TEST_CASE("random: real() is at least 0 and below 1", "[random]") {
  Random r(8);
  for (int i = 0; i < 100000; ++i) {
    const double x = r.real();
    REQUIRE(x >= 0.0);
    REQUIRE(x < 1.0);
  }
}

TEST_CASE("random: bernoulli(0) never, bernoulli(1) always", "[random]") {
  Random r(9);
  int never = 0, always = 0;
  for (int i = 0; i < 100000; ++i) {
    never += r.bernoulli(0.0);
    always += r.bernoulli(1.0);
  }
  CHECK(never == 0);
  CHECK(always == 100000);
}

TEST_CASE("random: geometric(p) has mean (1 - p) / p", "[random]") {
  Random r(10);
  CHECK(r.geometric(1.0) == 0);
  for (double p : {0.5, 0.1, 0.025}) {
    INFO("p " << p);
    const int n = 200000;
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += static_cast<double>(r.geometric(p));
    // Five standard errors: the standard deviation is sqrt(1 - p) / p.
    const double mean = (1 - p) / p;
    CHECK(sum / n == Approx(mean).margin(5 * std::sqrt(1 - p) / p / std::sqrt(n)));
  }
}

TEST_CASE("random: shuffle gives a permutation, each of them equally often", "[random]") {
  Random r(11);
  std::vector<int> v = iota_vector(100);
  r.shuffle(v.begin(), v.end());
  CHECK(v != iota_vector(100));
  std::vector<int> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == iota_vector(100));
  // All 6 orders of 3 elements: 10,000 expected each, standard deviation about 91.
  std::map<std::vector<int>, int> orders;
  for (int i = 0; i < 60000; ++i) {
    std::vector<int> w = iota_vector(3);
    r.shuffle(w.begin(), w.end());
    ++orders[w];
  }
  CHECK(orders.size() == 6);
  for (const auto& [order, count] : orders) CHECK(std::abs(count - 10000) < 600);
}

TEST_CASE("random: partial_shuffle picks k distinct elements and keeps the rest", "[random]") {
  Random r(12);
  for (std::uint64_t k : {0u, 1u, 5u, 10u, 11u}) {
    INFO("k " << k);
    std::vector<int> v = iota_vector(10);
    r.partial_shuffle(v.begin(), v.end(), k);
    std::vector<int> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == iota_vector(10));
  }
  // Each of 10 elements lands among the first 3 with probability 3/10.
  std::vector<int> picked(10, 0);
  for (int i = 0; i < 30000; ++i) {
    std::vector<int> v = iota_vector(10);
    r.partial_shuffle(v.begin(), v.end(), 3);
    for (int j = 0; j < 3; ++j) ++picked[static_cast<std::size_t>(v[static_cast<std::size_t>(j)])];
  }
  for (int count : picked) CHECK(std::abs(count - 9000) < 400);
}

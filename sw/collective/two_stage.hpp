// The pure parts of Hoefler, Siebert and Rehm's two-stage broadcast (NOTES-broadcast B1,
// B4): who synchronizes with the root, which ranks wait how many penalty rounds, the
// fragment bitmap a receiver keeps, the multicast group ids of live communicators, and
// when a communicator falls back to the binomial tree. Functions of their inputs only,
// so every rank computes the same answer without talking to the others.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "broadcast_tree.hpp"
#include "model/core/random.hpp"

namespace meshsync {

// Communicators smaller than this use TUNED's broadcast (binomial, linear up to 4 ranks):
// "less than 20 MPI processes" (B1; an MCA parameter in Open MPI, here --threshold).
inline constexpr std::size_t kTwoStageMinRanks = 20;
inline bool uses_two_stage(std::size_t P, std::size_t threshold = kTwoStageMinRanks) { return P >= threshold && P >= 2; }

// Randomized single-process synchronization: the rank that sends the root a zero-byte
// arrival before the root multicasts, in the broadcast numbered `call` (0, 1, ...) of a
// communicator whose PRNG was seeded with `seed` at creation. Every rank advances the
// same generator once per call, so all agree; the rank is c = (root + 1 + x mod (P-1))
// mod P for the call's draw x: never the root, uniform over the others. P >= 2.
Rank sync_rank(std::uint64_t seed, std::uint64_t call, Rank root, std::size_t P);

// Penalty rounds k_r in chain order (relative ranks 0..P-1; entry 0 is the root, which
// never misses): the length of the run of consecutive ranks ending at r that missed the
// multicast. A rank that got it waits for nobody; one that missed it waits for the first
// rank before it that got it, one chain hop per rank in between.
std::vector<int> penalty_rounds(const std::vector<bool>& missed);

// The received-fragment bitmap of one rank: fragment k of F arrives from the multicast or
// from the chain predecessor, in any order and possibly twice; a duplicate changes nothing.
class FragmentBitmap {
 public:
  explicit FragmentBitmap(std::size_t fragments) : have_(fragments, false) {}
  // Marks fragment k; true if it was new.
  bool set(std::size_t k);
  bool has(std::size_t k) const { return have_.at(k); }
  bool full() const { return count_ == have_.size(); }
  std::size_t count() const { return count_; }
  std::size_t size() const { return have_.size(); }

 private:
  std::vector<bool> have_;
  std::size_t count_ = 0;
};

// Multicast group ids (MCGIDs) of the live communicators, network-wide unique: a new
// communicator draws one at random (the paper's CSPRNG; here the seeded generator) until
// it differs from every live one, and gives it back when it is freed.
class MulticastGroups {
 public:
  explicit MulticastGroups(std::uint64_t seed) : rng_(seed) {}
  std::uint16_t allocate();
  void release(std::uint16_t id) { live_.erase(id); }
  bool live(std::uint16_t id) const { return live_.count(id) != 0; }
  std::size_t size() const { return live_.size(); }

 private:
  Random rng_;
  std::set<std::uint16_t> live_;
};

}  // namespace meshsync

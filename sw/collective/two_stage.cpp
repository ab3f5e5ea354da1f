#include "two_stage.hpp"

#include <stdexcept>

namespace meshsync {

Rank sync_rank(std::uint64_t seed, std::uint64_t call, Rank root, std::size_t P) {
  if (P < 2) throw std::invalid_argument("sync_rank needs two ranks or more");
  // The communicator's generator after `call` draws: the one draw of each call.
  Random rng(seed);
  std::uint64_t x = 0;
  for (std::uint64_t k = 0; k <= call; ++k) x = rng.below(P - 1);
  return static_cast<Rank>((root + 1 + x) % P);
}

std::vector<int> penalty_rounds(const std::vector<bool>& missed) {
  std::vector<int> k(missed.size(), 0);
  for (std::size_t r = 1; r < missed.size(); ++r) k[r] = missed[r] ? k[r - 1] + 1 : 0;
  return k;
}

bool FragmentBitmap::set(std::size_t k) {
  if (have_.at(k)) return false;
  have_[k] = true;
  ++count_;
  return true;
}

std::uint16_t MulticastGroups::allocate() {
  if (live_.size() >= 0xffff) throw std::runtime_error("every multicast group id is in use");
  for (;;) {
    // 0 is no group.
    const auto id = static_cast<std::uint16_t>(1 + rng_.below(0xffff));
    if (live_.insert(id).second) return id;
  }
}

}  // namespace meshsync

// The tree a broadcast runs on, in MPI ranks, and the binomial broadcast of Open MPI's
// TUNED component with MPI's rank rotation (NOTES-broadcast B1): pure functions of the
// communicator size and the root, so every rank can compute its own parent and children.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace meshsync {

using Rank = std::uint32_t;

// Who sends to whom. `children[r]` is in send order: a rank forwards each packet of the
// message to its children one after the other, in this order.
struct BroadcastTree {
  Rank root = 0;
  std::vector<std::optional<Rank>> parent;  // by rank; the root has none
  std::vector<std::vector<Rank>> children;  // by rank, in send order

  std::size_t size() const { return parent.size(); }
  // Tree edges from the root to rank r.
  int depth(Rank r) const;
  // Ranks in an order where every parent comes before its children (breadth first).
  std::vector<Rank> top_down() const;
};

// TUNED's threshold: communicators of at most this many ranks use the linear broadcast
// ("linear ... with at most 4 MPI processes", B1).
inline constexpr std::size_t kLinearMaxRanks = 4;

// Relative rank r' = (r - root) mod P: the rank rotation that puts any root at 0.
Rank relative_rank(Rank r, Rank root, std::size_t P);

// The broadcast TUNED runs for `P` ranks from `root`: linear (the root sends to every
// rank in rank order) for P <= linear_max, else the binomial tree of B1: in round k every
// r' < 2^(k-1) sends to r' + 2^(k-1) < P, so r' receives in round floor(log2 r') + 1 from
// r' minus its highest bit. Each rank's children are in round order.
BroadcastTree binomial_broadcast(std::size_t P, Rank root, std::size_t linear_max = kLinearMaxRanks);

// The round in which relative rank r' > 0 receives in the binomial tree: floor(log2 r') + 1.
int binomial_round(Rank relative);

}  // namespace meshsync

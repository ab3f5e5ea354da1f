#include "broadcast_tree.hpp"

#include <stdexcept>

namespace meshsync {

int BroadcastTree::depth(Rank r) const {
  int d = 0;
  for (std::optional<Rank> p = parent.at(r); p; p = parent[*p]) ++d;
  return d;
}

std::vector<Rank> BroadcastTree::top_down() const {
  std::vector<Rank> order{root};
  for (std::size_t i = 0; i < order.size(); ++i)
    for (Rank c : children[order[i]]) order.push_back(c);
  return order;
}

Rank relative_rank(Rank r, Rank root, std::size_t P) {
  return static_cast<Rank>((r + P - root) % P);
}

int binomial_round(Rank relative) {
  int bits = 0;
  for (; relative; relative >>= 1) ++bits;
  return bits;
}

BroadcastTree binomial_broadcast(std::size_t P, Rank root, std::size_t linear_max) {
  if (P == 0 || root >= P) throw std::invalid_argument("binomial_broadcast: root outside the communicator");
  BroadcastTree t;
  t.root = root;
  t.parent.assign(P, std::nullopt);
  t.children.assign(P, {});
  // Back from relative ranks to ranks: the rotation's inverse.
  const auto rank = [&](std::size_t rel) { return static_cast<Rank>((rel + root) % P); };
  if (P <= linear_max) {
    for (std::size_t rel = 1; rel < P; ++rel) {
      t.parent[rank(rel)] = root;
      t.children[root].push_back(rank(rel));
    }
    return t;
  }
  // Round k = 1, 2, ...: every r' < 2^(k-1) sends to r' + 2^(k-1). Walking the rounds in
  // order appends each rank's children in the order it sends to them.
  for (std::size_t step = 1; step < P; step <<= 1)
    for (std::size_t rel = 0; rel < step && rel + step < P; ++rel) {
      t.parent[rank(rel + step)] = rank(rel);
      t.children[rank(rel)].push_back(rank(rel + step));
    }
  return t;
}

}  // namespace meshsync

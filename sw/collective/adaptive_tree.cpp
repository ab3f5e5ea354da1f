#include "adaptive_tree.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

namespace meshsync::adaptive {

namespace {

Position lowbit(Position p) { return p & (~p + 1); }

int popcount(Position p) {
  int n = 0;
  for (; p; p &= p - 1) ++n;
  return n;
}

}  // namespace

DistanceMatrix::DistanceMatrix(const std::vector<std::vector<std::uint32_t>>& rows)
    : DistanceMatrix(rows.size()) {
  for (std::size_t u = 0; u < n_; ++u) {
    if (rows[u].size() != n_) throw std::invalid_argument("distance matrix: row " + std::to_string(u) + " is not " + std::to_string(n_) + " long");
    for (std::size_t v = 0; v < n_; ++v) set(static_cast<Node>(u), static_cast<Node>(v), rows[u][v]);
  }
}

Position parent_position(Position p) { return p & (p - 1); }

std::vector<Position> child_positions(Position p, std::size_t n) {
  std::vector<Position> c;
  // p = 0 has a child at every power of two below n.
  for (Position k = 1; (p == 0 || k < lowbit(p)) && p + k < n; k <<= 1) c.push_back(p + k);
  return c;
}

Position subtree_end(Position p, std::size_t n) {
  const std::size_t end = p == 0 ? n : std::min<std::size_t>(n, std::size_t{p} + lowbit(p));
  return static_cast<Position>(end);
}

AdaptiveTree::AdaptiveTree(const DistanceMatrix& d, std::vector<Node> placement)
    : d_(&d), placement_(std::move(placement)), where_(d.size(), kNowhere) {
  if (placement_.empty()) throw std::invalid_argument("adaptive tree: no nodes");
  for (Position p = 0; p < placement_.size(); ++p) {
    const Node v = placement_[p];
    if (v >= d.size()) throw std::invalid_argument("adaptive tree: node " + std::to_string(v) + " outside the distance matrix");
    if (where_[v] != kNowhere) throw std::invalid_argument("adaptive tree: node " + std::to_string(v) + " placed twice");
    where_[v] = p;
  }
  while (cap_ < d.size()) cap_ <<= 1;
  max_.assign(2 * cap_, 0);
  path_.assign(cap_, 0);
  recompute_all();
}

AdaptiveTree AdaptiveTree::balanced_path(const DistanceMatrix& d, Node root, std::vector<Node> others) {
  const std::size_t n = others.size() + 1;
  std::vector<Node> placement(n, root);
  // Placed positions that still have empty children, by key (#empty, depth, position):
  // "serving the nodes with the highest number of undefined children first", ties to the
  // longer path, then to the higher position.
  std::vector<int> empty(n, 0);
  std::set<std::tuple<int, int, Position>> open;
  const auto add = [&](Position p) {
    empty[p] = static_cast<int>(child_positions(p, n).size());
    if (empty[p] > 0) open.insert({empty[p], popcount(p), p});
  };
  add(0);
  while (!others.empty()) {
    const auto last = std::prev(open.end());
    const Position p = std::get<2>(*last);
    open.erase(last);
    // Children fill from the highest (the largest subtree) down, so the empty ones are the
    // lowest `empty[p]`.
    const Position child = child_positions(p, n)[static_cast<std::size_t>(empty[p] - 1)];
    if (--empty[p] > 0) open.insert({empty[p], popcount(p), p});
    // The left node closest to the parent, ties to the lower node.
    const Node parent = placement[p];
    std::size_t best = 0;
    for (std::size_t i = 1; i < others.size(); ++i) {
      const std::uint32_t di = d(parent, others[i]), db = d(parent, others[best]);
      if (di < db || (di == db && others[i] < others[best])) best = i;
    }
    placement[child] = others[best];
    others[best] = others.back();
    others.pop_back();
    add(child);
  }
  return AdaptiveTree(d, std::move(placement));
}

std::vector<std::pair<Node, Cost>> AdaptiveTree::leaf_costs() const {
  std::vector<std::pair<Node, Cost>> leaves;
  for (Position p = 0; p < size(); ++p)
    if (is_leaf(p)) leaves.emplace_back(placement_[p], path_[p]);
  return leaves;
}

Cost AdaptiveTree::full_cost() const {
  Cost worst = 0;
  for (Position p = 0; p < size(); ++p) {
    if (!is_leaf(p)) continue;
    Cost c = 0;
    for (Position q = p; q != 0; q = parent_position(q)) c += (*d_)(placement_[parent_position(q)], placement_[q]);
    worst = std::max(worst, c);
  }
  return worst;
}

Cost AdaptiveTree::subtree_cost(Position p) const {
  // The segment tree over [p, end): the usual bottom-up walk, both ends inward.
  Cost best = 0;
  for (std::size_t lo = cap_ + p, hi = cap_ + subtree_end(p, size()); lo < hi; lo >>= 1, hi >>= 1) {
    if (lo & 1) best = std::max(best, max_[lo++]);
    if (hi & 1) best = std::max(best, max_[--hi]);
  }
  return best;
}

void AdaptiveTree::set_path(Position p, Cost c) {
  path_[p] = c;
  std::size_t i = cap_ + p;
  max_[i] = c;
  for (i >>= 1; i >= 1; i >>= 1) max_[i] = std::max(max_[2 * i], max_[2 * i + 1]);
}

void AdaptiveTree::recompute(Position from, Position to) {
  // A parent's position is below its children's, and every position of (from, to) has
  // its parent in [from, to): ascending order sees each parent updated first.
  for (Position p = from; p < to; ++p) {
    const Position up = parent_position(p);
    set_path(p, p == 0 ? 0 : path_[up] + (*d_)(placement_[up], placement_[p]));
  }
}

void AdaptiveTree::swap_nodes(Node u, Node v) {
  const Position p = position_of(u), q = position_of(v);
  std::swap(placement_[p], placement_[q]);
  where_[u] = q;
  where_[v] = p;
  const Position lo = std::min(p, q), hi = std::max(p, q);
  const Position lo_end = subtree_end(lo, size());
  // The lower position's subtree may hold the other (a path swap): then one range.
  if (hi >= lo_end) recompute(hi, subtree_end(hi, size()));
  recompute(lo, lo_end);
}

void AdaptiveTree::join(Node v) {
  if (v >= where_.size() || where_[v] != kNowhere) throw std::invalid_argument("join: node " + std::to_string(v) + " is outside the matrix or already in the tree");
  const auto p = static_cast<Position>(size());
  placement_.push_back(v);
  where_[v] = p;
  recompute(p, p + 1);
}

std::optional<Node> AdaptiveTree::leave(Node v) {
  const Position f = position_of(v);
  if (f == 0) throw std::invalid_argument("leave: the root cannot leave");
  const auto last = static_cast<Position>(size() - 1);
  const Node r = placement_[last];
  placement_.pop_back();
  where_[v] = kNowhere;
  set_path(last, 0);
  if (f == last) return std::nullopt;
  // "The replacement node is always the one at the last position in the tree."
  placement_[f] = r;
  where_[r] = f;
  recompute(f, subtree_end(f, size()));
  return r;
}

int AdaptiveTree::height(Position p) const {
  int h = 0;
  for (Position c : child_positions(p, size())) h = std::max(h, 1 + height(c));
  return h;
}

}  // namespace meshsync::adaptive

// Figueira & Mendes' topology-based binomial tree (NOTES-broadcast A1, A2, A4): nodes
// placed on the positions of a binomial tree, the tree's cost from a distance matrix,
// Balanced-Path construction, and nodes joining and leaving. The swapping strategies
// that adapt the placement are in tree_swapping.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace meshsync::adaptive {

// A node is an index into the distance matrix; a position is a slot of the binomial tree.
using Node = std::uint32_t;
using Position = std::uint32_t;
using Cost = std::int64_t;

// d[u][v]: the cost of the tree edge u -> v ("in number of hops"; 0 = directly connected).
// Not required to be a metric or symmetric: the paper's Tables 1 and 5 are neither.
class DistanceMatrix {
 public:
  explicit DistanceMatrix(std::size_t nodes = 0) : n_(nodes), d_(nodes * nodes, 0) {}
  // Row by row; throws std::invalid_argument unless square.
  explicit DistanceMatrix(const std::vector<std::vector<std::uint32_t>>& rows);
  std::size_t size() const { return n_; }
  std::uint32_t operator()(Node u, Node v) const { return d_[u * n_ + v]; }
  void set(Node u, Node v, std::uint32_t cost) { d_[u * n_ + v] = cost; }
  void set_symmetric(Node u, Node v, std::uint32_t cost) {
    set(u, v, cost);
    set(v, u, cost);
  }

 private:
  std::size_t n_;
  std::vector<std::uint32_t> d_;
};

// MPICH's binomial labelling (A1): parent(p) = p with its lowest set bit cleared; the
// children of p are p + 2^k for every 2^k below p's lowest bit (every k for p = 0), and
// the subtree of p is the contiguous range [p, p + lowbit(p)).
Position parent_position(Position p);
std::vector<Position> child_positions(Position p, std::size_t n);  // ascending
// One past the last position of p's subtree in a tree of n positions.
Position subtree_end(Position p, std::size_t n);

class AdaptiveTree {
 public:
  // placement[p] = the node at position p; placement[0] is the root. Every node must be
  // below d.size() and appear once.
  AdaptiveTree(const DistanceMatrix& d, std::vector<Node> placement);

  // Balanced-Path (A2): the root at position 0, then, while nodes are left, the placed
  // position with an empty child of largest key (#empty children, depth, position) fills
  // its highest empty child with the left node closest to it (smallest (d, node)).
  static AdaptiveTree balanced_path(const DistanceMatrix& d, Node root, std::vector<Node> others);

  std::size_t size() const { return placement_.size(); }
  const std::vector<Node>& placement() const { return placement_; }
  Node at(Position p) const { return placement_[p]; }
  Position position_of(Node v) const { return where_.at(v); }
  bool contains(Node v) const { return v < where_.size() && where_[v] != kNowhere; }
  Node root() const { return placement_[0]; }
  bool is_leaf(Position p) const { return child_positions(p, size()).empty(); }
  const DistanceMatrix& distances() const { return *d_; }

  // The tree's cost: the largest leaf path cost (A1). Distances are not negative, so it
  // is also the largest path cost of any position; kept current incrementally.
  Cost cost() const { return max_[1]; }
  // Sum of d over the tree edges from the root to position p.
  Cost path_cost(Position p) const { return path_[p]; }
  // The largest path cost in p's subtree: what the tree's cost would be if only the paths
  // through p counted.
  Cost subtree_cost(Position p) const;
  // (leaf node, its path cost) in ascending position: the paper's cost tables.
  std::vector<std::pair<Node, Cost>> leaf_costs() const;
  // The cost computed from scratch, for checking the incremental one.
  Cost full_cost() const;

  // Exchange the positions of two nodes; only the path costs of their two subtrees are
  // recomputed (A1: "only leaves in subtree(p) U subtree(q)").
  void swap_nodes(Node u, Node v);
  // The distance of the tree edge into position p changed: recompute its subtree.
  void edge_changed(Position p) { recompute(p, subtree_end(p, size())); }
  // Every distance may have changed.
  void recompute_all() { recompute(0, static_cast<Position>(size())); }

  // Join (A4): v takes position n, under parent(n). Leave: the node at position n-1 moves
  // into the leaving node's position and is returned (none when the leaving node was the
  // last). The root cannot leave: the paper does not cover it.
  void join(Node v);
  std::optional<Node> leave(Node v);

  // Tree height below position p (0 for a leaf).
  int height(Position p) const;

 private:
  static constexpr Position kNowhere = ~Position{0};
  void recompute(Position from, Position to);
  void set_path(Position p, Cost c);

  const DistanceMatrix* d_;
  std::vector<Node> placement_;
  std::vector<Position> where_;  // by node
  std::vector<Cost> path_;       // by position
  // A max segment tree over path_ (leaves at cap_ + p), capacity for every node of d.
  std::size_t cap_ = 1;
  std::vector<Cost> max_;
};

}  // namespace meshsync::adaptive

#include "adaptive_broadcast.hpp"

#include <algorithm>

namespace meshsync {

using namespace adaptive;

namespace {

DistanceMatrix mesh_distances(const MeshShape& mesh, const Timing& t, const std::vector<NodeId>& nodes) {
  DistanceMatrix d(nodes.size());
  const std::uint64_t hop = t.tp + t.trn;
  for (Node u = 0; u < nodes.size(); ++u)
    for (Node v = 0; v < nodes.size(); ++v) {
      const int h = hops(mesh.coord(nodes[u]), mesh.coord(nodes[v]));
      d.set(u, v, static_cast<std::uint32_t>(h > 0 ? static_cast<std::uint64_t>(h - 1) * hop : 0));
    }
  return d;
}

// Whether the XY route from a to b crosses the link leaving `at` through `port`: first
// along a's row to b's column, then along b's column.
bool xy_crosses(Coord a, Coord b, Coord at, Port port) {
  switch (port) {
    case Port::PlusX: return a.y == at.y && a.x <= at.x && b.x > at.x;
    case Port::MinusX: return a.y == at.y && a.x >= at.x && b.x < at.x;
    case Port::PlusY: return b.x == at.x && a.y <= at.y && b.y > at.y;
    case Port::MinusY: return b.x == at.x && a.y >= at.y && b.y < at.y;
    default: return false;
  }
}

std::vector<Node> all_but(std::size_t n, Rank root) {
  std::vector<Node> out;
  for (Node v = 0; v < n; ++v)
    if (v != root) out.push_back(v);
  return out;
}

}  // namespace

std::uint64_t zero_load_latency(const Timing& t, int hops, std::uint64_t flits) {
  return t.ts + t.trn + static_cast<std::uint64_t>(hops) * (t.tp + t.trn) + flits - 1;
}

AdaptiveBroadcast::AdaptiveBroadcast(const MeshShape& mesh, const Timing& timing,
                                     const std::vector<NodeId>& rank_nodes, Rank root, Swapping swapping)
    : mesh_(mesh),
      nodes_(rank_nodes),
      timing_(timing),
      swapping_(swapping),
      d_(mesh_distances(mesh, timing, rank_nodes)),
      tree_(AdaptiveTree::balanced_path(d_, root, all_but(rank_nodes.size(), root))) {}

BroadcastTree AdaptiveBroadcast::tree() const {
  const std::size_t n = tree_.size();
  BroadcastTree t;
  t.root = tree_.root();
  t.parent.assign(n, std::nullopt);
  t.children.assign(n, {});
  for (Position p = 0; p < n; ++p) {
    std::vector<Position> kids = child_positions(p, n);
    std::reverse(kids.begin(), kids.end());
    for (Position c : kids) {
      t.children[tree_.at(p)].push_back(tree_.at(c));
      t.parent[tree_.at(c)] = tree_.at(p);
    }
  }
  return t;
}

AdaptStep AdaptiveBroadcast::observe(const std::vector<std::optional<std::uint64_t>>& latency,
                                     std::uint64_t flits, std::uint64_t jitter) {
  const std::uint64_t one_hop = zero_load_latency(timing_, 1, flits);
  std::vector<EdgeCost> edges;
  for (Position p = 1; p < tree_.size(); ++p) {
    const Node b = tree_.at(p);
    if (!latency.at(b)) continue;
    const std::uint64_t l = *latency[b];
    edges.push_back({tree_.at(parent_position(p)), b, static_cast<std::uint32_t>(l > one_hop ? l - one_hop : 0)});
  }
  return update_edges(edges, jitter);
}

AdaptStep AdaptiveBroadcast::observe_links(const std::vector<LinkLatency>& links) {
  DistanceMatrix next = mesh_distances(mesh_, timing_, nodes_);
  for (const LinkLatency& l : links)
    for (Node u = 0; u < nodes_.size(); ++u)
      for (Node v = 0; v < nodes_.size(); ++v)
        if (xy_crosses(mesh_.coord(nodes_[u]), mesh_.coord(nodes_[v]), mesh_.coord(l.node), l.port))
          next.set(u, v, next(u, v) + l.extra);
  // Pairs off the tree change nothing the tree costs now: take them all at once, so that
  // swap trials see them. The tree edges follow one by one.
  std::vector<EdgeCost> edges;
  std::vector<std::uint8_t> in_tree(nodes_.size() * nodes_.size(), 0);
  for (Position p = 1; p < tree_.size(); ++p) {
    const Node a = tree_.at(parent_position(p)), b = tree_.at(p);
    edges.push_back({a, b, next(a, b)});
    in_tree[a * nodes_.size() + b] = 1;
  }
  for (Node u = 0; u < nodes_.size(); ++u)
    for (Node v = 0; v < nodes_.size(); ++v)
      if (!in_tree[u * nodes_.size() + v]) d_.set(u, v, next(u, v));
  return update_edges(edges, 0);
}

AdaptStep AdaptiveBroadcast::update_edges(const std::vector<EdgeCost>& edges, std::uint64_t jitter) {
  // The paper adapts to one link getting dearer at a time: each edge's new cost is applied
  // alone, and a rise beyond jitter that puts a path through the edge above the tree's
  // cost before this round is swapped for, with that cost as the target. The target is the
  // round's, not the cost just before the edge: after a search that found nothing, the
  // tree's cost already holds the first rise, and the later edges' rises would hide under
  // it and never be searched. A fall is only recorded (A3).
  AdaptStep step;
  step.cost_before = tree_.cost();
  const Cost target = step.cost_before;
  for (const EdgeCost& e : edges) {
    const std::uint32_t known = d_(e.a, e.b);
    if (e.cost == known) continue;
    d_.set(e.a, e.b, e.cost);
    // Still a tree edge? An earlier swap may have split the pair.
    const Position pb = tree_.position_of(e.b);
    const bool tree_edge = pb != 0 && tree_.at(parent_position(pb)) == e.a;
    if (tree_edge) tree_.edge_changed(pb);
    if (e.cost <= std::uint64_t{known} + jitter) continue;
    ++step.raised;
    if (!tree_edge || tree_.subtree_cost(pb) <= target) continue;
    const SwapOutcome o = adapt_edge(tree_, swapping_, e.a, e.b, target);
    ++step.searches;
    step.steps += o.steps;
    if (o.applied) ++step.swaps;
  }
  step.cost_after = tree_.cost();
  return step;
}

}  // namespace meshsync

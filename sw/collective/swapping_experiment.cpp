#include "swapping_experiment.hpp"

#include "../../model/core/random.hpp"

namespace meshsync::adaptive {

namespace {

std::vector<Node> nodes_from(Node first, Node last) {
  std::vector<Node> v;
  for (Node x = first; x < last; ++x) v.push_back(x);
  return v;
}

// One operation of a churn run, drawn once so every policy replays it.
struct Operation {
  bool join;
  std::uint64_t pick;  // leave: which non-root position, modulo the tree's size - 1
};

}  // namespace

DistanceMatrix random_distances(std::size_t nodes, std::uint32_t max_distance, std::uint64_t seed) {
  Random rng(seed);
  DistanceMatrix d(nodes);
  for (Node u = 0; u < nodes; ++u)
    for (Node v = u + 1; v < nodes; ++v) d.set_symmetric(u, v, static_cast<std::uint32_t>(rng.below(max_distance + 1u)));
  return d;
}

std::vector<SwappingPoint> run_swapping_experiment(const SwappingParams& p) {
  std::vector<SwappingPoint> points;
  for (std::uint32_t f : p.cost_factors)
    for (Swapping s : kAllSwappings) points.push_back(SwappingPoint{f, s, 0, 0, 0, 0});
  for (std::size_t topo = 0; topo < p.topologies; ++topo) {
    const std::uint64_t seed = p.seed * 1000003u + topo;
    DistanceMatrix d = random_distances(p.nodes, p.max_distance, seed);
    const AdaptiveTree built = AdaptiveTree::balanced_path(d, 0, nodes_from(1, static_cast<Node>(p.nodes)));
    const Cost target = built.cost();
    Random rng(seed ^ 0x5bd1e995u);
    std::size_t point = 0;
    for (std::uint32_t f : p.cost_factors) {
      const auto pos = static_cast<Position>(1 + rng.below(p.nodes - 1));
      const Node a = built.at(parent_position(pos)), b = built.at(pos);
      const std::uint32_t was = d(a, b);
      d.set_symmetric(a, b, was + f);
      for (Swapping s : kAllSwappings) {
        SwappingPoint& out = points[point++];
        AdaptiveTree t = built;
        t.edge_changed(pos);
        const Cost increased = t.cost();
        if (increased <= target) continue;
        const SwapOutcome o = adapt_edge(t, s, a, b, target, p.reading);
        ++out.raised;
        out.gain += static_cast<double>(increased - t.cost()) / static_cast<double>(increased);
        out.steps += o.steps;
        out.reached_target += o.reached_target ? 1 : 0;
      }
      d.set_symmetric(a, b, was);
    }
  }
  for (SwappingPoint& pt : points)
    if (pt.raised) {
      const double n = static_cast<double>(pt.raised);
      pt.gain /= n;
      pt.steps /= n;
      pt.reached_target /= n;
    }
  return points;
}

std::string churn_policy_name(ChurnPolicy p) {
  switch (p) {
    case ChurnPolicy::None: return "none";
    case ChurnPolicy::PositionPath: return "position/path";
    case ChurnPolicy::PositionPosition: return "position/position";
  }
  return "?";
}

std::vector<ChurnPoint> run_churn_experiment(const ChurnParams& p) {
  const ChurnPolicy policies[] = {ChurnPolicy::None, ChurnPolicy::PositionPath, ChurnPolicy::PositionPosition};
  std::vector<ChurnPoint> points;
  for (ChurnPolicy c : policies) points.push_back(ChurnPoint{c, 0, 0, 0});
  // Joining nodes are new ones, beyond the first `nodes`: the matrix holds them all.
  const std::size_t capacity = p.nodes + p.operations;
  for (std::size_t tree = 0; tree < p.trees; ++tree) {
    const std::uint64_t seed = p.seed * 1000003u + tree;
    const DistanceMatrix d = random_distances(capacity, p.max_distance, seed);
    const AdaptiveTree built = AdaptiveTree::balanced_path(d, 0, nodes_from(1, static_cast<Node>(p.nodes)));
    Random rng(seed ^ 0x9e3779b9u);
    std::vector<Operation> ops(p.operations);
    for (Operation& op : ops) op = Operation{rng.bernoulli(0.5), rng.bits()};
    for (ChurnPoint& out : points) {
      AdaptiveTree t = built;
      Node next = static_cast<Node>(p.nodes);
      double cost_sum = 0, steps = 0;
      for (const Operation& op : ops) {
        // A tree of the root alone has nobody to lose: it gains one instead.
        if (op.join || t.size() < 2) {
          if (out.policy == ChurnPolicy::None) t.join(next++);
          else steps += join_and_adapt(t, next++, {}, p.reading).steps;
        } else {
          const Node v = t.at(static_cast<Position>(1 + op.pick % (t.size() - 1)));
          if (out.policy == ChurnPolicy::None) t.leave(v);
          else
            steps += leave_and_adapt(t, v, out.policy == ChurnPolicy::PositionPath ? Swapping::Path : Swapping::Position,
                                     {}, p.reading)
                         .steps;
        }
        cost_sum += static_cast<double>(t.cost());
      }
      out.final_cost += static_cast<double>(t.cost());
      out.mean_cost += cost_sum / static_cast<double>(ops.size());
      out.steps += steps / static_cast<double>(ops.size());
    }
  }
  for (ChurnPoint& pt : points) {
    const double n = static_cast<double>(p.trees);
    pt.final_cost /= n;
    pt.mean_cost /= n;
    pt.steps /= n;
  }
  return points;
}

}  // namespace meshsync::adaptive

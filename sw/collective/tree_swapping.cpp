#include "tree_swapping.hpp"

#include <stdexcept>

#include "../../model/core/errors.hpp"

namespace meshsync::adaptive {

namespace {

// Appends (m, other) unless it would move the root or do nothing.
void offer(std::vector<NodePair>& out, const AdaptiveTree& t, Node m, Node other) {
  if (m != other && m != t.root() && other != t.root()) out.emplace_back(m, other);
}

// b's "longest path down to a leaf": each step to the child of greatest subtree height,
// ties to the higher position.
std::vector<Node> longest_path_down(const AdaptiveTree& t, Node b) {
  std::vector<Node> down;
  Position p = t.position_of(b);
  for (;;) {
    const std::vector<Position> kids = child_positions(p, t.size());
    if (kids.empty()) return down;
    Position next = kids.front();
    for (Position c : kids)
      if (t.height(c) >= t.height(next)) next = c;  // ascending: >= keeps the higher on ties
    down.push_back(t.at(next));
    p = next;
  }
}

// a's ancestors, nearest first, the root excluded.
std::vector<Node> ancestors(const AdaptiveTree& t, Node a) {
  std::vector<Node> up;
  for (Position p = t.position_of(a); p != 0;) {
    p = parent_position(p);
    if (p != 0) up.push_back(t.at(p));
  }
  return up;
}

// Alternates up_node <-> up[i] and down_node <-> down[i], going on with one list once the
// other has run out.
std::vector<NodePair> alternate(const AdaptiveTree& t, Node up_node, const std::vector<Node>& up,
                                Node down_node, const std::vector<Node>& down) {
  std::vector<NodePair> out;
  for (std::size_t i = 0; i < up.size() || i < down.size(); ++i) {
    if (i < up.size()) offer(out, t, up_node, up[i]);
    if (i < down.size()) offer(out, t, down_node, down[i]);
  }
  return out;
}

Cost trial(AdaptiveTree& t, const NodePair& s) {
  t.swap_nodes(s.first, s.second);
  const Cost c = t.cost();
  t.swap_nodes(s.first, s.second);
  return c;
}

}  // namespace

std::string swapping_name(Swapping s) {
  switch (s) {
    case Swapping::Family: return "family";
    case Swapping::Path: return "path";
    case Swapping::Leaf: return "leaf";
    case Swapping::Position: return "position";
  }
  return "?";
}

std::vector<NodePair> family_candidates(const AdaptiveTree& t, Node a, Node b) {
  // b moves: to its children, its parent a, then its siblings, each list ascending.
  std::vector<NodePair> out;
  const Position pb = t.position_of(b);
  for (Position c : child_positions(pb, t.size())) offer(out, t, b, t.at(c));
  offer(out, t, b, a);
  for (Position s : child_positions(t.position_of(a), t.size())) offer(out, t, b, t.at(s));
  return out;
}

std::vector<NodePair> path_candidates(const AdaptiveTree& t, Node a, Node b) {
  return alternate(t, a, ancestors(t, a), b, longest_path_down(t, b));
}

std::vector<NodePair> leaf_candidates(const AdaptiveTree& t, Node a, Node b) {
  std::vector<NodePair> out;
  for (Position p = 1; p < t.size(); ++p) {
    if (!t.is_leaf(p)) continue;
    offer(out, t, a, t.at(p));
    offer(out, t, b, t.at(p));
  }
  return out;
}

std::vector<NodePair> position_candidates(const AdaptiveTree& t, Node m) {
  // x+1, x-1, x+2, x-2, ..., skipping position 0 and positions past the tree.
  std::vector<NodePair> out;
  const auto x = static_cast<std::int64_t>(t.position_of(m));
  const auto n = static_cast<std::int64_t>(t.size());
  for (std::int64_t k = 1; x + k < n || x - k > 0; ++k) {
    if (x + k < n) offer(out, t, m, t.at(static_cast<Position>(x + k)));
    if (x - k > 0) offer(out, t, m, t.at(static_cast<Position>(x - k)));
  }
  return out;
}

std::vector<NodePair> candidates(Swapping s, const AdaptiveTree& t, Node a, Node b) {
  switch (s) {
    case Swapping::Family: return family_candidates(t, a, b);
    case Swapping::Path: return path_candidates(t, a, b);
    case Swapping::Leaf: return leaf_candidates(t, a, b);
    case Swapping::Position: return position_candidates(t, a == t.root() ? b : a);
  }
  throw std::invalid_argument("unknown swapping strategy");
}

Swapping parse_swapping(const std::string& name) {
  for (Swapping s : kAllSwappings)
    if (swapping_name(s) == name) return s;
  throw ConfigError("--swapping '" + name + "': expected family, path, leaf or position");
}

std::string search_reading_name(SearchReading r) { return r == SearchReading::Paper ? "paper" : "guarded"; }

SearchReading parse_search_reading(const std::string& name) {
  for (SearchReading r : {SearchReading::Guarded, SearchReading::Paper})
    if (search_reading_name(r) == name) return r;
  throw ConfigError("--reading: '" + name + "' is not guarded or paper");
}

SwapOutcome search_swaps(AdaptiveTree& t, const std::vector<NodePair>& list, Cost target, SearchReading reading) {
  SwapOutcome o;
  o.cost_before = o.cost_after = t.cost();
  std::optional<NodePair> best;
  Cost best_cost = 0;
  for (const NodePair& s : list) {
    const Cost c = trial(t, s);
    ++o.steps;
    o.trials.push_back({s, c});
    if (c <= target) {
      best = s;
      best_cost = c;
      o.reached_target = true;
      break;
    }
    if (!best || c < best_cost) {
      best = s;
      best_cost = c;
    }
  }
  if (best && (o.reached_target || best_cost < o.cost_before || reading == SearchReading::Paper)) {
    t.swap_nodes(best->first, best->second);
    o.applied = best;
    o.cost_after = t.cost();
  }
  return o;
}

SwapOutcome adapt_edge(AdaptiveTree& t, Swapping s, Node a, Node b, Cost target, SearchReading reading) {
  return search_swaps(t, candidates(s, t, a, b), target, reading);
}

SwapOutcome join_and_adapt(AdaptiveTree& t, Node v, const BeforeSearch& before_search, SearchReading reading) {
  const Cost target = t.cost();
  t.join(v);
  if (before_search) before_search(t);
  if (t.cost() <= target && reading == SearchReading::Guarded)
    return SwapOutcome{t.cost(), t.cost(), 0, true, std::nullopt, {}};
  return search_swaps(t, position_candidates(t, v), target, reading);
}

SwapOutcome leave_and_adapt(AdaptiveTree& t, Node v, Swapping s, const BeforeSearch& before_search,
                            SearchReading reading) {
  if (s != Swapping::Path && s != Swapping::Position)
    throw std::invalid_argument("a leave is repaired by Path or Position swapping");
  const Cost target = t.cost();
  const std::optional<Node> r = t.leave(v);
  if (before_search) before_search(t);
  if (!r || t.cost() <= target) return SwapOutcome{t.cost(), t.cost(), 0, true, std::nullopt, {}};
  const std::vector<NodePair> list = s == Swapping::Path
                                         ? alternate(t, *r, ancestors(t, *r), *r, longest_path_down(t, *r))
                                         : position_candidates(t, *r);
  return search_swaps(t, list, target, reading);
}

}  // namespace meshsync::adaptive

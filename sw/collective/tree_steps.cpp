#include "tree_steps.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "../../model/core/errors.hpp"
#include "../../model/core/text_scan.hpp"

namespace meshsync::adaptive {

namespace {

const char* kind_name(TreeStep::Kind k) {
  switch (k) {
    case TreeStep::Kind::Swap: return "swap";
    case TreeStep::Kind::Join: return "join";
    case TreeStep::Kind::Leave: return "leave";
    case TreeStep::Kind::Raise: return "raise";
  }
  return "?";
}

// The numbers of one step after its word, blank-separated.
std::vector<long long> numbers(TextScan& scan, const std::string& step) {
  std::vector<long long> out;
  for (scan.blanks(); !scan.done(); scan.blanks()) {
    const std::optional<long long> n = scan.number(9);
    if (!n) throw ConfigError("--steps: '" + step + "': expected numbers after the step's name");
    out.push_back(*n);
  }
  return out;
}

TreeState state_of(const AdaptiveTree& t) { return {t.placement(), t.leaf_costs(), t.cost()}; }

}  // namespace

std::string TreeStep::text() const {
  switch (kind) {
    case Kind::Swap: return fmt::format("swap {} {}", a, b);
    case Kind::Join: return fmt::format("join {}", a);
    case Kind::Leave: return fmt::format("leave {}", a);
    case Kind::Raise: return fmt::format("raise {} {} {}", a, b, distance);
  }
  return "?";
}

std::vector<TreeStep> parse_tree_steps(const std::string& text, std::size_t nodes) {
  std::vector<TreeStep> out;
  if (text.empty()) return out;  // no --steps: the Balanced-Path tree alone
  std::string::size_type from = 0;
  while (from <= text.size()) {
    const std::string::size_type end = std::min(text.find_first_of(";/", from), text.size());
    const std::string step = text.substr(from, end - from);
    from = end + 1;
    TextScan scan(step);
    scan.blanks();
    if (scan.done()) {
      if (end == text.size() && !out.empty()) break;
      throw ConfigError("--steps: an empty step");
    }
    TreeStep s;
    std::size_t want = 0;
    if (scan.take_word("swap")) s.kind = TreeStep::Kind::Swap, want = 2;
    else if (scan.take_word("join")) s.kind = TreeStep::Kind::Join, want = 1;
    else if (scan.take_word("leave")) s.kind = TreeStep::Kind::Leave, want = 1;
    else if (scan.take_word("raise")) s.kind = TreeStep::Kind::Raise, want = 3;
    else throw ConfigError("--steps: '" + step + "': a step is swap A B, join V, leave V or raise A B DISTANCE");
    const std::vector<long long> n = numbers(scan, step);
    if (n.size() != want)
      throw ConfigError(fmt::format("--steps: '{}': {} takes {} number(s)", step, kind_name(s.kind), want));
    for (std::size_t i = 0; i < std::min<std::size_t>(want, 2); ++i)
      if (static_cast<std::size_t>(n[i]) >= nodes)
        throw ConfigError(fmt::format("--steps: '{}': node {} is not in the matrix (nodes 0 to {})", step, n[i],
                                      nodes - 1));
    s.a = static_cast<Node>(n[0]);
    if (want >= 2) s.b = static_cast<Node>(n[1]);
    if (want == 3) s.distance = static_cast<std::uint32_t>(n[2]);
    out.push_back(s);
  }
  return out;
}

Walkthrough walk_tree(DistanceMatrix& d, Node root, const std::vector<TreeStep>& steps, Swapping swapping,
                      SearchReading reading) {
  if (root >= d.size())
    throw ConfigError(fmt::format("--root {}: not in the matrix (nodes 0 to {})", root, d.size() - 1));
  std::vector<bool> joins_later(d.size(), false);
  for (const TreeStep& s : steps)
    if (s.kind == TreeStep::Kind::Join) {
      if (s.a == root) throw ConfigError("--steps: '" + s.text() + "': the root is in the tree from the start");
      if (joins_later[s.a]) throw ConfigError("--steps: node " + std::to_string(s.a) + " joins twice");
      joins_later[s.a] = true;
    }
  std::vector<Node> others;
  for (Node v = 0; v < d.size(); ++v)
    if (v != root && !joins_later[v]) others.push_back(v);
  AdaptiveTree t = AdaptiveTree::balanced_path(d, root, others);
  Walkthrough w{state_of(t), {}};
  for (const TreeStep& s : steps) {
    const auto refuse = [&](const std::string& why) { throw ConfigError("--steps: '" + s.text() + "': " + why); };
    StepReport r{s, t.cost(), std::nullopt, std::nullopt, {}, {}};
    const auto keep = [&r](const AdaptiveTree& changed) { r.before_search = state_of(changed); };
    switch (s.kind) {
      case TreeStep::Kind::Swap:
        if (!t.contains(s.a) || !t.contains(s.b)) refuse("both nodes must be in the tree");
        if (s.a == t.root() || s.b == t.root()) refuse("the root does not move");
        t.swap_nodes(s.a, s.b);
        break;
      case TreeStep::Kind::Join:
        r.search = join_and_adapt(t, s.a, keep, reading);
        break;
      case TreeStep::Kind::Leave: {
        if (!t.contains(s.a)) refuse("the node is not in the tree");
        if (s.a == t.root()) refuse("the root cannot leave (the paper does not cover it)");
        if (swapping != Swapping::Path && swapping != Swapping::Position)
          refuse("a leave is repaired by path or position swapping (--swapping)");
        // The node at the last position moves into the hole (A4), unless it is the one leaving.
        if (const Node last = t.at(static_cast<Position>(t.size() - 1)); last != s.a) r.moved = last;
        r.search = leave_and_adapt(t, s.a, swapping, keep, reading);
        break;
      }
      case TreeStep::Kind::Raise: {
        if (!t.contains(s.a) || !t.contains(s.b) || t.position_of(s.b) == 0 ||
            t.at(parent_position(t.position_of(s.b))) != s.a)
          refuse(fmt::format("{} -> {} is not an edge of the tree", s.a, s.b));
        d.set(s.a, s.b, s.distance);
        t.edge_changed(t.position_of(s.b));
        r.search = adapt_edge(t, swapping, s.a, s.b, r.target, reading);
        break;
      }
    }
    r.after = state_of(t);
    w.steps.push_back(std::move(r));
  }
  return w;
}

}  // namespace meshsync::adaptive

// A worked example run the way the paper's Tables 2-8 run theirs: the Balanced-Path tree
// of a distance matrix, then swaps, joins, leaves and dearer edges one after the other,
// each with the trials its swapping search made (`meshsync adaptive-tree --distances`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tree_swapping.hpp"

namespace meshsync::adaptive {

struct TreeStep {
  enum class Kind { Swap, Join, Leave, Raise };
  Kind kind = Kind::Swap;
  Node a = 0, b = 0;           // swap a b, join a, leave a, raise the edge a -> b
  std::uint32_t distance = 0;  // raise: d(a, b)'s new value
  std::string text() const;    // as it is written: "swap 5 6", "raise 7 4 9"
};

// "swap 5 6; join 8; leave 7; raise 7 4 9" (`;` or `/` between steps). Throws ConfigError
// naming the step for a malformed one or a node outside the matrix.
std::vector<TreeStep> parse_tree_steps(const std::string& text, std::size_t nodes);

struct TreeState {
  std::vector<Node> placement;                // by position
  std::vector<std::pair<Node, Cost>> leaves;  // the paper's cost table
  Cost cost = 0;
};

struct StepReport {
  TreeStep step;
  Cost target = 0;             // the cost before the step: what the search aims back at
  std::optional<Node> moved;   // leave: the node moved into the hole
  std::optional<TreeState> before_search;  // join, leave: the tree the search starts from
  SwapOutcome search;          // trials and the swap kept (none for a swap step)
  TreeState after;
};

struct Walkthrough {
  TreeState balanced_path;
  std::vector<StepReport> steps;
};

// The tree starts with every node of `d` but those a step joins, `root` at position 0.
// Leaves and dearer edges are repaired by `swapping` (leaves: Path or Position only).
// `d` is changed by raise steps. Throws ConfigError for a step the tree cannot take (a
// node joining twice, the root leaving, a raise of a pair that is not a tree edge).
Walkthrough walk_tree(DistanceMatrix& d, Node root, const std::vector<TreeStep>& steps, Swapping swapping,
                      SearchReading reading = SearchReading::Guarded);

}  // namespace meshsync::adaptive

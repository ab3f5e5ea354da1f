// The four swapping strategies of Figueira & Mendes (NOTES-broadcast A3) and the joins
// and leaves that use them (A4). Each strategy is an ordered list of candidate swaps;
// one search tries them against a target cost.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adaptive_tree.hpp"

namespace meshsync::adaptive {

enum class Swapping { Family, Path, Leaf, Position };
std::string swapping_name(Swapping s);
Swapping parse_swapping(const std::string& name);  // throws ConfigError
inline constexpr Swapping kAllSwappings[] = {Swapping::Family, Swapping::Path, Swapping::Leaf,
                                             Swapping::Position};

using NodePair = std::pair<Node, Node>;

// Two readings of when a search changes the tree (docs/broadcast.md measures both).
// Guarded (NOTES' [R], the default): a search that misses its target keeps its cheapest
// trial only if that lowers the cost, and a join searches only if it raised the cost.
// Paper, the text taken literally: a search that misses "will perform the swap that leads
// to the lowest possible cost" even when that is dearer than the tree as it stands
// (Table 7's Path_Swapping: 7 -> 8), and a join looks for a better position "even if
// adding the new node did not impact the tree's cost".
enum class SearchReading { Guarded, Paper };
std::string search_reading_name(SearchReading r);
SearchReading parse_search_reading(const std::string& name);  // throws ConfigError

// The swaps each strategy tries, in order, for the tree edge a -> b (a the parent) that got
// dearer. Swaps that would move the root or exchange a node with itself are left out.
std::vector<NodePair> family_candidates(const AdaptiveTree& t, Node a, Node b);
std::vector<NodePair> path_candidates(const AdaptiveTree& t, Node a, Node b);
std::vector<NodePair> leaf_candidates(const AdaptiveTree& t, Node a, Node b);
// Position_Swapping moves one node m (a; b if a is the root; the newcomer on a join).
std::vector<NodePair> position_candidates(const AdaptiveTree& t, Node m);
std::vector<NodePair> candidates(Swapping s, const AdaptiveTree& t, Node a, Node b);

// One trial of a search: the swap and the tree's cost with it.
struct SwapTrial {
  NodePair swap;
  Cost cost = 0;
};

struct SwapOutcome {
  Cost cost_before = 0;  // when the search started (the increased cost)
  Cost cost_after = 0;
  int steps = 0;                   // trials: swap, cost, undo
  bool reached_target = false;     // a trial had cost <= target and was kept
  std::optional<NodePair> applied;  // the swap left in place, if any
  std::vector<SwapTrial> trials;    // in order, as the paper's worked examples list them
};

// Tries each candidate in order; keeps the first whose cost is <= target and stops. If
// none is, applies the cheapest (the first on ties): Guarded only if it is below the
// current cost (which lets the gain be zero, as the paper says it may), Paper always.
SwapOutcome search_swaps(AdaptiveTree& t, const std::vector<NodePair>& candidates, Cost target,
                         SearchReading reading = SearchReading::Guarded);

// The strategy `s` for the edge a -> b whose distance just rose; `target` is the cost
// before the rise.
SwapOutcome adapt_edge(AdaptiveTree& t, Swapping s, Node a, Node b, Cost target,
                       SearchReading reading = SearchReading::Guarded);

// Sees the tree after a join or leave, before the search repairs it (the paper's Tables 4
// and 7).
using BeforeSearch = std::function<void(const AdaptiveTree&)>;

// Join with Position_Swapping on the newcomer, run only if the join raised the cost (A4).
SwapOutcome join_and_adapt(AdaptiveTree& t, Node v, const BeforeSearch& before_search = {},
                           SearchReading reading = SearchReading::Guarded);
// Leave; the node moved into the hole is then swapped by Path_Swapping (its ancestors
// alternating with its longest path down) or Position_Swapping, only if the cost rose.
SwapOutcome leave_and_adapt(AdaptiveTree& t, Node v, Swapping s, const BeforeSearch& before_search = {},
                            SearchReading reading = SearchReading::Guarded);

}  // namespace meshsync::adaptive

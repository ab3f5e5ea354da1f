#include "tree_reduction.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace meshsync {

ReduceVector reduce_along_tree(const BarrierTree& tree, ReduceOp op, ElementType t,
                               const std::vector<ReduceVector>& inputs) {
  const std::vector<TreeNode>& members = tree.nodes();
  if (inputs.size() != members.size())
    throw std::invalid_argument("reduce_along_tree: " + std::to_string(inputs.size()) + " inputs for " +
                                std::to_string(members.size()) + " members");
  const std::size_t words = inputs.empty() ? 0 : inputs.front().size();
  for (const ReduceVector& v : inputs)
    if (v.size() != words || words % words_per_element(t) != 0)
      throw std::invalid_argument("reduce_along_tree: the inputs are not vectors of one number of " +
                                  element_type_name(t) + " elements");
  const std::size_t elements = words / words_per_element(t);
  // Deepest members first: a member's children are done before it.
  std::vector<std::size_t> order(members.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return members[a].depth > members[b].depth; });
  std::vector<ReduceVector> partial(members.size());
  for (std::size_t k : order) {
    std::vector<const TreeNode*> children;
    for (const ChildLink& c : members[k].children) children.push_back(&members[tree.rank_of(c.node)]);
    std::sort(children.begin(), children.end(), [](const TreeNode* a, const TreeNode* b) {
      return std::tie(a->slot, a->node) < std::tie(b->slot, b->node);
    });
    ReduceVector r = children.empty() ? inputs[k] : partial[tree.rank_of(children.front()->node)];
    for (std::size_t c = 1; c < children.size(); ++c) {
      const ReduceVector& next = partial[tree.rank_of(children[c]->node)];
      combine(op, t, r, next, 0, elements);
    }
    if (!children.empty()) combine(op, t, r, inputs[k], 0, elements);
    partial[k] = std::move(r);
  }
  return partial[tree.rank_of(tree.root())];
}

}  // namespace meshsync

#include "allreduce_run.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace meshsync {

std::uint64_t AllreduceRunResult::latency() const {
  std::uint64_t last = 0;
  for (const AllreduceRankTiming& r : ranks) last = std::max(last, r.completion);
  return last;
}

namespace {

// The ranks' software: each advances through its actions as its sends return and its
// messages arrive.
struct Ranks {
  Machine& m;
  const std::vector<NodeId>& nodes;
  const ReduceSchedule& s;
  ReduceOp op;
  ElementType t;
  std::uint64_t start = 0;
  AllreduceRunResult out;
  std::vector<std::size_t> next;
  std::size_t done = 0;
  sc_core::sc_event all_done;

  Ranks(Machine& machine, const std::vector<NodeId>& n, const ReduceSchedule& sched, ReduceOp o, ElementType type)
      : m(machine), nodes(n), s(sched), op(o), t(type), next(n.size(), 0) {}

  void step(std::size_t me) {
    const auto& actions = s.actions[me];
    if (next[me] == actions.size()) {
      out.ranks[me].completion = m.now() - start;
      if (++done == nodes.size()) all_done.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    const ReduceAction& a = actions[next[me]];
    const std::size_t w = words_per_element(t);
    Node& node = m.node(nodes[me]);
    if (a.kind == ReduceAction::Kind::Send) {
      const ReduceVector& v = out.results[me];
      std::vector<std::uint32_t> words(v.begin() + static_cast<std::ptrdiff_t>(a.from * w),
                                       v.begin() + static_cast<std::ptrdiff_t>((a.from + a.count) * w));
      ++out.messages;
      out.flits += 1 + words.size();
      out.hops += static_cast<std::uint64_t>(
          hops(m.mesh().mesh().coord(nodes[me]), m.mesh().mesh().coord(nodes[a.peer])));
      node.send(nodes[a.peer], std::move(words), [this, me] {
        ++next[me];
        step(me);
      });
      return;
    }
    node.receive(
        [this, me, a](NiReceive& got) {
          // Recorded, not thrown: an exception in a SystemC process would reach the caller
          // as the kernel's.
          if (got.words.size() != a.count * words_per_element(t))
            out.errors.push_back("rank " + std::to_string(me) + " got " + std::to_string(got.words.size()) +
                                 " words for " + std::to_string(a.count) + " elements");
          else
            apply_receive(a, me, op, t, out.results[me], got.words);
          ++next[me];
          step(me);
        },
        NiMatch{NiMatch::Kind::Message, nodes[a.peer]});
  }
};

}  // namespace

AllreduceRunResult run_allreduce(Machine& m, const std::vector<NodeId>& rank_nodes, const ReduceSchedule& s,
                                 ReduceOp op, ElementType t, const std::vector<ReduceVector>& inputs) {
  if (rank_nodes.size() != s.ranks || inputs.size() != s.ranks)
    throw std::invalid_argument("run_allreduce: ranks, schedule and inputs differ in size");
  m.mesh().wait_idle();
  Ranks r(m, rank_nodes, s, op, t);
  r.out.results = inputs;
  r.out.ranks.resize(rank_nodes.size());
  for (std::size_t k = 0; k < rank_nodes.size(); ++k) r.out.ranks[k].node = rank_nodes[k];
  r.start = m.now() + 1;
  for (std::size_t k = 0; k < rank_nodes.size(); ++k) m.mesh().at(r.start, [&r, k] { r.step(k); });
  while (r.done < rank_nodes.size()) sc_core::wait(r.all_done);
  m.mesh().wait_idle();
  return std::move(r.out);
}

}  // namespace meshsync

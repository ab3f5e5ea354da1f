#include "reduction.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "../../model/core/errors.hpp"

namespace meshsync {

std::string allreduce_algorithm_name(AllreduceAlgorithm a) {
  switch (a) {
    case AllreduceAlgorithm::Btm: return "btm";
    case AllreduceAlgorithm::RecursiveDoubling: return "recursive-doubling";
    case AllreduceAlgorithm::Ring: return "ring";
    case AllreduceAlgorithm::BinomialBroadcast: return "binomial";
  }
  return "?";
}

std::size_t ReduceSchedule::messages() const {
  std::size_t n = 0;
  for (const auto& rank : actions)
    for (const ReduceAction& a : rank) n += a.kind == ReduceAction::Kind::Send;
  return n;
}

namespace {

using Kind = ReduceAction::Kind;

void recursive_doubling(ReduceSchedule& s) {
  const std::size_t P = s.ranks, K = s.elements;
  std::size_t p2 = 1;
  while (p2 * 2 <= P) p2 *= 2;
  const std::size_t r = P - p2;
  // Ranks below 2r pair up: the even one hands its vector to the odd one, which stands
  // for both in the exchanges, and gets the result back at the end.
  const auto real = [&](std::size_t v) { return v < r ? 2 * v + 1 : v + r; };
  for (std::size_t me = 0; me < P; ++me) {
    auto& a = s.actions[me];
    if (me < 2 * r && me % 2 == 0) {
      a.push_back({Kind::Send, me + 1, 0, K});
      a.push_back({Kind::ReceiveReplace, me + 1, 0, K});
      continue;
    }
    if (me < 2 * r) a.push_back({Kind::ReceiveCombine, me - 1, 0, K});
    const std::size_t v = me < 2 * r ? me / 2 : me - r;
    for (std::size_t mask = 1; mask < p2; mask *= 2) {
      const std::size_t partner = real(v ^ mask);
      a.push_back({Kind::Send, partner, 0, K});
      a.push_back({Kind::ReceiveCombine, partner, 0, K});
    }
    if (me < 2 * r) a.push_back({Kind::Send, me - 1, 0, K});
  }
}

void ring(ReduceSchedule& s) {
  const std::size_t P = s.ranks, K = s.elements;
  if (P < 2) return;
  const auto start = [&](std::size_t c) { return c * K / P; };
  const auto chunk = [&](Kind kind, std::size_t peer, std::size_t c) {
    return ReduceAction{kind, peer, start(c), start(c + 1) - start(c)};
  };
  for (std::size_t me = 0; me < P; ++me) {
    const std::size_t next = (me + 1) % P, prev = (me + P - 1) % P;
    auto& a = s.actions[me];
    // Reduce-scatter: after step s a rank holds the sum over s + 2 ranks of one chunk;
    // after P - 1 steps rank me has all of chunk me + 1.
    for (std::size_t step = 0; step + 1 < P; ++step) {
      a.push_back(chunk(Kind::Send, next, (me + P - step) % P));
      a.push_back(chunk(Kind::ReceiveCombine, prev, (me + 2 * P - step - 1) % P));
    }
    // Allgather: the finished chunks travel once around.
    for (std::size_t step = 0; step + 1 < P; ++step) {
      a.push_back(chunk(Kind::Send, next, (me + 1 + P - step) % P));
      a.push_back(chunk(Kind::ReceiveReplace, prev, (me + P - step) % P));
    }
  }
}

// A binomial-tree reduce to `root`, in ranks relative to it: a rank takes the subtrees
// below it, lowest first, then hands the sum up.
void binomial_reduce(ReduceSchedule& s, std::size_t root) {
  const std::size_t P = s.ranks, K = s.elements;
  for (std::size_t me = 0; me < P; ++me) {
    const std::size_t rel = (me + P - root) % P;
    const auto abs = [&](std::size_t r) { return (r + root) % P; };
    auto& a = s.actions[me];
    for (std::size_t mask = 1; mask < P; mask *= 2) {
      if (rel & mask) {
        a.push_back({Kind::Send, abs(rel - mask), 0, K});
        break;
      }
      if (rel + mask < P) a.push_back({Kind::ReceiveCombine, abs(rel + mask), 0, K});
    }
  }
}

void binomial(ReduceSchedule& s) {
  const std::size_t P = s.ranks, K = s.elements;
  binomial_reduce(s, 0);
  for (std::size_t me = 0; me < P; ++me) {
    auto& a = s.actions[me];
    // Broadcast from rank 0 down the same tree (TUNED's: children me + 1, me + 2, me + 4 ...
    // above its highest bit).
    std::size_t high = 1;
    while (high * 2 <= me) high *= 2;
    if (me > 0) a.push_back({Kind::ReceiveReplace, me - high, 0, K});
    for (std::size_t m = me == 0 ? 1 : high * 2; me + m < P; m *= 2) a.push_back({Kind::Send, me + m, 0, K});
  }
}

}  // namespace

ReduceSchedule reduce_schedule(std::size_t ranks, std::size_t elements, std::size_t root) {
  ReduceSchedule s;
  s.algorithm = AllreduceAlgorithm::BinomialBroadcast;
  s.ranks = ranks;
  s.elements = elements;
  s.actions.resize(ranks);
  binomial_reduce(s, root);
  return s;
}

ReduceSchedule allreduce_schedule(AllreduceAlgorithm a, std::size_t ranks, std::size_t elements) {
  ReduceSchedule s;
  s.algorithm = a;
  s.ranks = ranks;
  s.elements = elements;
  s.actions.resize(ranks);
  switch (a) {
    case AllreduceAlgorithm::RecursiveDoubling: recursive_doubling(s); break;
    case AllreduceAlgorithm::Ring: ring(s); break;
    case AllreduceAlgorithm::BinomialBroadcast: binomial(s); break;
    case AllreduceAlgorithm::Btm: throw std::logic_error("btm runs in the routers: it has no software schedule");
  }
  return s;
}

void apply_receive(const ReduceAction& a, std::size_t me, ReduceOp op, ElementType t, ReduceVector& own,
                   const ReduceVector& received) {
  const std::size_t w = words_per_element(t);
  if (a.kind == Kind::ReceiveReplace) {
    std::copy(received.begin(), received.end(), own.begin() + static_cast<std::ptrdiff_t>(a.from * w));
    return;
  }
  // The lower rank's elements are the first operand.
  ReduceVector mine(own.begin() + static_cast<std::ptrdiff_t>(a.from * w),
                    own.begin() + static_cast<std::ptrdiff_t>((a.from + a.count) * w));
  ReduceVector first = a.peer < me ? received : mine;
  combine(op, t, first, a.peer < me ? mine : received, 0, a.count);
  std::copy(first.begin(), first.end(), own.begin() + static_cast<std::ptrdiff_t>(a.from * w));
}

std::vector<ReduceVector> evaluate(const ReduceSchedule& s, ReduceOp op, ElementType t,
                                   const std::vector<ReduceVector>& inputs) {
  std::vector<ReduceVector> v = inputs;
  std::vector<std::size_t> next(s.ranks, 0);
  std::map<std::pair<std::size_t, std::size_t>, std::deque<ReduceVector>> wires;  // (from, to)
  const std::size_t w = words_per_element(t);
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t me = 0; me < s.ranks; ++me)
      while (next[me] < s.actions[me].size()) {
        const ReduceAction& a = s.actions[me][next[me]];
        if (a.kind == Kind::Send) {
          wires[{me, a.peer}].emplace_back(v[me].begin() + static_cast<std::ptrdiff_t>(a.from * w),
                                           v[me].begin() + static_cast<std::ptrdiff_t>((a.from + a.count) * w));
        } else {
          auto& wire = wires[{a.peer, me}];
          if (wire.empty()) break;
          apply_receive(a, me, op, t, v[me], wire.front());
          wire.pop_front();
        }
        ++next[me];
        progress = true;
      }
  }
  for (std::size_t me = 0; me < s.ranks; ++me)
    if (next[me] < s.actions[me].size())
      throw std::logic_error("reduction schedule: rank " + std::to_string(me) + " waits forever");
  return v;
}

ReduceVector reduce_in_rank_order(ReduceOp op, ElementType t, const std::vector<ReduceVector>& inputs) {
  ReduceVector r = inputs.at(0);
  for (std::size_t k = 1; k < inputs.size(); ++k) combine(op, t, r, inputs[k], 0, r.size() / words_per_element(t));
  return r;
}

}  // namespace meshsync

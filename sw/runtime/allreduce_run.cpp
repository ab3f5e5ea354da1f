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

// One rank's part in progress; callbacks hold it alive until its last action.
struct RankRun : std::enable_shared_from_this<RankRun> {
  Node& node;
  const MeshShape& mesh;
  const std::vector<NodeId>& nodes;
  const std::vector<ReduceAction>& actions;
  std::size_t me;
  ReduceOp op;
  ElementType t;
  ReduceVector& buffer;
  std::function<void(const ReduceRankStats&)> done;
  std::size_t next = 0;
  ReduceRankStats stats;

  RankRun(Node& n, const MeshShape& m, const std::vector<NodeId>& ranks, const std::vector<ReduceAction>& a,
          std::size_t rank, ReduceOp o, ElementType type, ReduceVector& b,
          std::function<void(const ReduceRankStats&)> d)
      : node(n), mesh(m), nodes(ranks), actions(a), me(rank), op(o), t(type), buffer(b), done(std::move(d)) {}

  void step() {
    if (next == actions.size()) {
      done(stats);
      return;
    }
    const ReduceAction& a = actions[next++];
    const std::size_t w = words_per_element(t);
    if (a.kind == ReduceAction::Kind::Send) {
      std::vector<std::uint32_t> words(buffer.begin() + static_cast<std::ptrdiff_t>(a.from * w),
                                       buffer.begin() + static_cast<std::ptrdiff_t>((a.from + a.count) * w));
      ++stats.messages;
      stats.flits += 1 + words.size();
      stats.hops += static_cast<std::uint64_t>(hops(mesh.coord(nodes[me]), mesh.coord(nodes[a.peer])));
      node.send(nodes[a.peer], std::move(words), [self = shared_from_this()] { self->step(); });
      return;
    }
    node.receive(
        [self = shared_from_this(), a](NiReceive& got) {
          // Recorded, not thrown: an exception in a SystemC process would reach the caller
          // as the kernel's.
          if (got.words.size() != a.count * words_per_element(self->t)) {
            if (self->stats.error.empty())
              self->stats.error = "rank " + std::to_string(self->me) + " got " + std::to_string(got.words.size()) +
                                  " words for " + std::to_string(a.count) + " elements";
          } else {
            apply_receive(a, self->me, self->op, self->t, self->buffer, got.words);
          }
          self->step();
        },
        NiMatch{NiMatch::Kind::Message, nodes[a.peer]});
  }
};

// The ranks of a communicator: its members, which the tree keeps in node-id order.
std::vector<NodeId> rank_nodes_of(const Communicator& c) {
  std::vector<NodeId> nodes;
  for (const TreeNode& t : c.members()) nodes.push_back(t.node);
  return nodes;
}

// Runs `actions` for `node`'s rank and blocks the calling thread until they are done.
void run_blocking(Node& node, const Communicator& c, const std::vector<NodeId>& nodes,
                  const std::vector<ReduceAction>& actions, std::size_t me, ReduceOp op, ElementType t,
                  ReduceVector& buffer) {
  bool finished = false;
  std::string error;
  sc_core::sc_event ended;
  run_rank(node, c.tree->mesh(), nodes, actions, me, op, t, buffer, [&](const ReduceRankStats& s) {
    error = s.error;
    finished = true;
    ended.notify(sc_core::SC_ZERO_TIME);
  });
  while (!finished) sc_core::wait(ended);
  if (!error.empty()) throw SimulationError("reduction: " + error);
}

std::size_t rank_of(const Communicator& c, NodeId n) {
  if (!c.contains(n)) throw ConfigError("a reduction's caller is not a member of the communicator");
  return c.tree->rank_of(n);
}

void check_length(const ReduceVector& buffer, ElementType t) {
  if (buffer.size() % words_per_element(t) != 0)
    throw ConfigError("a reduction buffer of " + std::to_string(buffer.size()) + " words holds no whole number of " +
                      element_type_name(t) + " elements");
}

// What a reduction call is, for the check that every rank makes the same one.
std::string reduction_call(const std::string& kind, ReduceOp op, ElementType t, std::size_t elements,
                           const std::string& how) {
  return kind + " " + reduce_op_name(op) + " of " + std::to_string(elements) + " " + element_type_name(t) +
         " elements (" + how + ")";
}

ReductionDescriptor descriptor_of(ReduceOp op, ElementType t, std::size_t elements, bool all) {
  if (elements > 0xffff)
    throw ConfigError("an in-network reduction carries at most 65535 elements, got " + std::to_string(elements));
  return ReductionDescriptor{op, t, all, static_cast<std::uint16_t>(elements)};
}

}  // namespace

void run_rank(Node& node, const MeshShape& mesh, const std::vector<NodeId>& rank_nodes,
              const std::vector<ReduceAction>& actions, std::size_t me, ReduceOp op, ElementType t,
              ReduceVector& buffer, std::function<void(const ReduceRankStats&)> done) {
  std::make_shared<RankRun>(node, mesh, rank_nodes, actions, me, op, t, buffer, std::move(done))->step();
}

void allreduce(Node& node, const Communicator& c, ReduceVector& buffer, ReduceOp op, ElementType t,
               AllreduceAlgorithm a) {
  check_reduction(op, t);
  check_length(buffer, t);
  const std::vector<NodeId> nodes = rank_nodes_of(c);
  const std::size_t me = rank_of(c, node.id());
  const std::size_t elements = buffer.size() / words_per_element(t);
  c.calls->check_and_record(me, reduction_call("allreduce", op, t, elements, allreduce_algorithm_name(a)));
  if (a == AllreduceAlgorithm::Btm) {
    if (c.scheme != BarrierScheme::BTM) throw ConfigError("allreduce btm needs a communicator with BTM barriers");
    buffer = node.reduce_in_network(c.gid, descriptor_of(op, t, elements, true), buffer).words;
    return;
  }
  const ReduceSchedule s = allreduce_schedule(a, nodes.size(), elements);
  run_blocking(node, c, nodes, s.actions[me], me, op, t, buffer);
}

void reduce(Node& node, const Communicator& c, ReduceVector& buffer, ReduceOp op, ElementType t, std::size_t root,
            AllreduceAlgorithm a) {
  check_reduction(op, t);
  check_length(buffer, t);
  if (a != AllreduceAlgorithm::Btm && a != AllreduceAlgorithm::BinomialBroadcast)
    throw ConfigError("reduce runs in the routers (btm) or as a binomial tree, not " + allreduce_algorithm_name(a));
  const std::vector<NodeId> nodes = rank_nodes_of(c);
  if (root >= nodes.size()) throw ConfigError("reduce: root rank " + std::to_string(root) + " is not a rank");
  const std::size_t me = rank_of(c, node.id());
  const std::size_t elements = buffer.size() / words_per_element(t);
  c.calls->check_and_record(me, reduction_call("reduce", op, t, elements,
                                               allreduce_algorithm_name(a) + " to rank " + std::to_string(root)));
  if (a == AllreduceAlgorithm::BinomialBroadcast) {
    const ReduceSchedule s = reduce_schedule(nodes.size(), elements, root);
    run_blocking(node, c, nodes, s.actions[me], me, op, t, buffer);
    return;
  }
  if (c.scheme != BarrierScheme::BTM) throw ConfigError("reduce btm needs a communicator with BTM barriers");
  // The routers leave the result at the tree's root; a root rank elsewhere gets it in one
  // point-to-point message from there (docs/reduction-hardware.md, "Timing").
  const NodeId tree_root = c.tree->root(), to = nodes[root];
  NiReduce r = node.reduce_in_network(c.gid, descriptor_of(op, t, elements, false), buffer);
  if (node.id() == tree_root) {
    if (to == tree_root) buffer = std::move(r.words);
    else node.send(to, std::move(r.words));
  } else if (node.id() == to) {
    buffer = node.receive(NiMatch{NiMatch::Kind::Message, tree_root}).words;
  }
}

AllreduceRunResult run_allreduce(Machine& m, const std::vector<NodeId>& rank_nodes, const ReduceSchedule& s,
                                 ReduceOp op, ElementType t, const std::vector<ReduceVector>& inputs) {
  if (rank_nodes.size() != s.ranks || inputs.size() != s.ranks)
    throw std::invalid_argument("run_allreduce: ranks, schedule and inputs differ in size");
  m.mesh().wait_idle();
  AllreduceRunResult out;
  out.results = inputs;
  out.ranks.resize(rank_nodes.size());
  const std::uint64_t start = m.now() + 1;
  std::size_t finished = 0;
  sc_core::sc_event all_done;
  for (std::size_t k = 0; k < rank_nodes.size(); ++k) {
    out.ranks[k].node = rank_nodes[k];
    m.mesh().at(start, [&, k] {
      run_rank(m.node(rank_nodes[k]), m.mesh().mesh(), rank_nodes, s.actions[k], k, op, t, out.results[k],
               [&, k](const ReduceRankStats& st) {
                 out.ranks[k].completion = m.now() - start;
                 out.messages += st.messages;
                 out.flits += st.flits;
                 out.hops += st.hops;
                 if (!st.error.empty()) out.errors.push_back(st.error);
                 if (++finished == rank_nodes.size()) all_done.notify(sc_core::SC_ZERO_TIME);
               });
    });
  }
  while (finished < rank_nodes.size()) sc_core::wait(all_done);
  m.mesh().wait_idle();
  return out;
}

AllreduceRunResult run_in_network_reduction(Machine& m, const std::vector<NodeId>& rank_nodes, ReduceOp op,
                                            ElementType t, const std::vector<ReduceVector>& inputs, bool all) {
  if (rank_nodes.size() != inputs.size() || inputs.empty())
    throw std::invalid_argument("run_in_network_reduction: ranks and inputs differ in size");
  check_reduction(op, t);
  const std::size_t elements = inputs.front().size() / words_per_element(t);
  const ReductionDescriptor desc = descriptor_of(op, t, elements, all);
  m.mesh().config().require_reduction(desc.words(), "allreduce btm");
  const std::size_t P = rank_nodes.size();
  m.mesh().wait_idle();
  const Communicator c = m.groups().create(m.mesh().mesh(), rank_nodes, BarrierScheme::BTM);
  // Every rank's software as callbacks on its node; `each` counts them back in.
  std::size_t finished = 0;
  sc_core::sc_event all_done;
  const auto one_done = [&] {
    if (++finished == P) all_done.notify(sc_core::SC_ZERO_TIME);
  };
  const auto wait_all = [&] {
    while (finished < P) sc_core::wait(all_done);
    finished = 0;
  };
  std::vector<NodeId> in_memory;
  for (NodeId n : rank_nodes)
    join(m.node(n), c, [&, n](bool in_hardware) {
      if (!in_hardware) in_memory.push_back(n);
      one_done();
    });
  wait_all();
  if (!in_memory.empty()) {
    const Coord k = m.mesh().mesh().coord(in_memory.front());
    throw SimulationError("allreduce btm: the router of node (" + std::to_string(k.x) + "," + std::to_string(k.y) +
                          ") had no free barrier register, and node memory reduces nothing");
  }
  m.mesh().wait_idle();
  AllreduceRunResult out;
  out.results.resize(P);
  out.ranks.resize(P);
  const std::uint64_t hops_before = m.mesh().core().counters().sync_hops;
  const std::uint64_t start = m.now() + 1;
  for (std::size_t k = 0; k < P; ++k) {
    out.ranks[k].node = rank_nodes[k];
    m.mesh().at(start, [&, k] {
      m.node(rank_nodes[k]).reduce_in_network(c.gid, desc, inputs[k], [&, k](NiReduce& r) {
        out.ranks[k].completion = r.release_cycle - start;
        out.results[k] = std::move(r.words);
        one_done();
      });
    });
  }
  wait_all();
  m.mesh().wait_idle();
  // Up the tree and down it, one message per edge each way (a reduce's releases carry
  // no vector).
  out.messages = 2 * (P - 1);
  out.flits = (P - 1) * (desc.flits() + (all ? desc.flits() : 1));
  out.hops = m.mesh().core().counters().sync_hops - hops_before;
  for (NodeId n : rank_nodes) leave(m.node(n), c, one_done);
  wait_all();
  m.groups().free(c);
  return out;
}

}  // namespace meshsync

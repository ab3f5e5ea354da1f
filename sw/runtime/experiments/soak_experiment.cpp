#include "soak_experiment.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>

#include "../../../model/core/random.hpp"
#include "../../../model/core/real_text.hpp"
#include "../../collective/adaptive_broadcast.hpp"
#include "../../collective/tree_reduction.hpp"
#include "../allreduce_run.hpp"
#include "allreduce_experiment.hpp"
#include "../broadcast_run.hpp"
#include "../multicast_service.hpp"
#include "../two_stage_run.hpp"

namespace meshsync {

namespace {

std::string where(const MeshShape& m, NodeId n) {
  const Coord c = m.coord(n);
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}

// One group's barriers, epoch after epoch. A member enters epoch e+1 only once released
// from epoch e, and epoch e+1 cannot release anyone before all arrived, so at most two
// epochs are open at a time.
struct SoakGroup {
  struct Epoch {
    std::size_t arrived = 0;
    std::uint64_t last_arrival = 0;
    std::size_t released = 0;
    bool another = false;  // decided at its first release: the group runs one more epoch
  };
  Communicator c;
  std::vector<NodeId> members;
  std::vector<std::uint64_t> epoch_of;  // per member: the epoch it is in
  std::map<std::uint64_t, Epoch> open;
  std::size_t joined = 0, finished = 0, left = 0;
  bool overflowed = false;
};

// A software allreduce of the soak: its ranks, schedule, inputs and the vectors they end with.
struct SoakAllreduce {
  std::uint64_t id = 0;
  std::vector<NodeId> nodes;
  // In the routers: its BTM communicator (joined before, left after); else software on
  // the schedule.
  std::unique_ptr<Communicator> comm;
  bool in_routers = false;
  ReduceSchedule schedule;
  ReduceOp op = ReduceOp::Sum;
  ElementType type = ElementType::Int32;
  std::vector<ReduceVector> inputs, results;
  std::size_t finished = 0;
};

// A broadcast of the soak on its ranks: over a tree (binomial or adaptive), or two-stage
// (a tree multicast down its own BTM communicator, then the chain).
struct SoakBroadcast {
  std::uint64_t id = 0;
  std::string kind;
  std::unique_ptr<BroadcastRun> run;
  // Two-stage: the communicator (joined before, left after) and the run.
  Communicator comm;
  std::size_t joined = 0, left = 0;
  std::unique_ptr<TwoStageRun> two_stage;
  bool finished() const { return run ? run->finished() : two_stage && two_stage->finished(); }
  std::size_t completed() const { return run ? run->completed() : two_stage ? two_stage->completed() : 0; }
  const BroadcastResult* result() const { return run ? &run->result() : two_stage ? &two_stage->result() : nullptr; }
};

class Soak {
 public:
  Soak(Machine& m, const SoakParams& p, SoakResult& out)
      : m_(m), p_(p), out_(out), rng_(p.seed ^ 0x50A4ull), mesh_(m.mesh().mesh()), reduce_rng_(p.seed ^ 0xA11ull) {}

  void start_groups() {
    const NetworkConfig& cfg = m_.mesh().config();
    std::vector<NodeId> all(static_cast<std::size_t>(mesh_.nodes()));
    std::iota(all.begin(), all.end(), NodeId{0});
    const std::size_t size = p_.members_per_group(cfg);
    for (std::size_t g = 0; g < p_.group_count(cfg); ++g) {
      rng_.partial_shuffle(all.begin(), all.end(), size);
      std::vector<NodeId> members(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(size));
      std::sort(members.begin(), members.end());
      auto grp = std::make_unique<SoakGroup>();
      grp->c = m_.groups().create(mesh_, members, g % 2 == 0 ? BarrierScheme::BTM : BarrierScheme::CS);
      grp->members = std::move(members);
      grp->epoch_of.assign(grp->members.size(), 0);
      counts(*grp).groups++;
      groups_.push_back(std::move(grp));
    }
    for (auto& g : groups_) {
      SoakGroup* grp = g.get();
      for (NodeId n : grp->members)
        join(m_.node(n), grp->c, [this, grp](bool in_hardware) {
          if (!in_hardware) {
            ++counts(*grp).software_members;
            grp->overflowed = true;
          }
          // Members arrive only once every register of the group is written.
          if (++grp->joined == grp->members.size()) {
            if (grp->overflowed) ++counts(*grp).overflowed_groups;
            for (std::size_t i = 0; i < grp->members.size(); ++i) arrive_later(*grp, i);
          }
        });
    }
  }

  void start_multicasts(MulticastService& svc) {
    svc_ = &svc;
    if (p_.multicast_rate > 0) next_multicast(0);
  }

  void start_broadcasts() {
    in_collective_.assign(static_cast<std::size_t>(mesh_.nodes()), false);
    if (p_.broadcast_gap > 0) next_broadcast(0);
    if (p_.allreduce_gap > 0) next_allreduce(0);
  }

  // Epochs that never finished (after a deadlock): who is still waiting.
  void report_unfinished() {
    for (const auto& g : groups_)
      for (const auto& [e, ep] : g->open)
        out_.violations.push_back(group_name(*g, e) + " never finished: " + std::to_string(ep.arrived) + " of " +
                                  std::to_string(g->members.size()) + " members arrived, " +
                                  std::to_string(ep.released) + " released");
    for (const auto& b : broadcasts_)
      if (!b->finished())
        out_.violations.push_back(broadcast_name(*b) + " never finished: " + std::to_string(b->completed()) +
                                  " ranks completed");
    for (const auto& a : allreduces_)
      out_.violations.push_back(allreduce_name(*a) + " never finished: " + std::to_string(a->finished) + " of " +
                                std::to_string(a->nodes.size()) + " ranks done");
  }

  bool busy() const {
    return groups_left() > 0 || (svc_ && svc_->in_progress() > 0) || multicasts_pending_ ||
           broadcasts_pending_ || waiting_broadcast_ || !broadcasts_.empty() || allreduces_pending_ ||
           !allreduces_.empty();
  }
  sc_core::sc_event& changed() { return changed_; }

 private:
  SoakSchemeCounts& counts(const SoakGroup& g) { return g.c.scheme == BarrierScheme::BTM ? out_.btm : out_.cs; }
  std::size_t groups_left() const {
    return static_cast<std::size_t>(std::count_if(groups_.begin(), groups_.end(),
                                                  [](const auto& g) { return g->left < g->members.size(); }));
  }

  std::string group_name(const SoakGroup& g, std::uint64_t e) const {
    return "barrier gid " + std::to_string(g.c.gid) + " (" + scheme_name(g.c.scheme) + ", " +
           std::to_string(g.members.size()) + " members) epoch " + std::to_string(e);
  }

  void arrive_later(SoakGroup& g, std::size_t i) {
    m_.mesh().at(m_.now() + rng_.below(p_.think + 1), [this, &g, i] { arrive(g, i); });
  }

  void arrive(SoakGroup& g, std::size_t i) {
    const std::uint64_t e = g.epoch_of[i];
    SoakGroup::Epoch& ep = g.open[e];
    ++ep.arrived;
    ep.last_arrival = std::max(ep.last_arrival, m_.now());
    barrier(m_.node(g.members[i]), g.c, [this, &g, i, e](std::uint64_t released) { on_release(g, i, e, released); });
  }

  void on_release(SoakGroup& g, std::size_t i, std::uint64_t e, std::uint64_t cycle) {
    SoakGroup::Epoch& ep = g.open[e];
    if (ep.arrived < g.members.size() || cycle <= ep.last_arrival)
      out_.violations.push_back("cycle " + std::to_string(cycle) + ": " + group_name(g, e) + ": member " +
                                where(mesh_, g.members[i]) + " released when " + std::to_string(ep.arrived) + " of " +
                                std::to_string(g.members.size()) + " members had arrived (the last in cycle " +
                                std::to_string(ep.last_arrival) + ")");
    // Whether the group goes on is decided once per epoch, so that all members agree.
    if (ep.released++ == 0) ep.another = cycle < p_.cycles;
    const bool another = ep.another;
    if (ep.released == g.members.size()) {
      g.open.erase(e);
      ++counts(g).epochs;
    }
    ++g.epoch_of[i];
    if (another) {
      arrive_later(g, i);
      return;
    }
    if (++g.finished == g.members.size()) leave_all(g);
  }

  void leave_all(SoakGroup& g) {
    // A release that no barrier call took would free the next epoch early: none may be left.
    for (std::size_t i = 0; i < g.members.size(); ++i)
      if (const std::size_t extra = m_.mesh().ni(g.members[i]).unclaimed_releases(g.c.gid))
        out_.violations.push_back("cycle " + std::to_string(m_.now()) + ": " + group_name(g, g.epoch_of[i]) +
                                  ": member " + where(mesh_, g.members[i]) + " holds " + std::to_string(extra) +
                                  " release(s) more than it arrived");
    for (NodeId n : g.members)
      leave(m_.node(n), g.c, [this, &g] {
        if (++g.left == g.members.size()) {
          m_.groups().free(g.c);
          changed_.notify(sc_core::SC_ZERO_TIME);
        }
      });
  }

  // Multicasts arrive as a Bernoulli process per node: the whole mesh's next one after a
  // geometric gap.
  void next_multicast(std::uint64_t after) {
    const double chance = std::min(1.0, p_.multicast_rate * mesh_.nodes());
    const std::uint64_t at = rng_.next_event(after, chance);
    if (at >= p_.cycles) {
      multicasts_pending_ = false;
      changed_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    multicasts_pending_ = true;
    m_.mesh().at(at, [this, at] {
      std::vector<NodeId> nodes(static_cast<std::size_t>(mesh_.nodes()));
      std::iota(nodes.begin(), nodes.end(), NodeId{0});
      rng_.partial_shuffle(nodes.begin(), nodes.end(), p_.multicast_dests + 1);
      const NodeId source = nodes[0];
      std::vector<NodeId> dests(nodes.begin() + 1, nodes.begin() + 1 + static_cast<std::ptrdiff_t>(p_.multicast_dests));
      ++out_.multicasts;
      svc_->multicast(source, dests, [this](const MulticastRecord&) {
        ++out_.multicasts_done;
        changed_.notify(sc_core::SC_ZERO_TIME);
      });
      next_multicast(at);
    });
  }

  // A broadcast every `gap` cycles until --cycles, on ranks that are in no running
  // broadcast: a node has one parent at a time, so its receives match the right packets
  // (BroadcastRun). With too few free nodes it starts when a running one finishes.
  void next_broadcast(std::uint64_t after) {
    const std::uint64_t at = after + p_.broadcast_gap;
    if (at >= p_.cycles) {
      broadcasts_pending_ = false;
      changed_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    broadcasts_pending_ = true;
    m_.mesh().at(at, [this] { start_broadcast(); });
  }

  void start_broadcast() {
    const NetworkConfig& cfg = m_.mesh().config();
    const std::size_t P = p_.ranks_per_broadcast(cfg);
    std::vector<NodeId> nodes;
    for (NodeId n = 0; n < static_cast<NodeId>(mesh_.nodes()); ++n)
      if (!in_collective_[n]) nodes.push_back(n);
    if (nodes.size() < P) {
      waiting_broadcast_ = true;  // finish_broadcast starts it
      return;
    }
    rng_.partial_shuffle(nodes.begin(), nodes.end(), P);
    nodes.resize(P);
    for (NodeId n : nodes) in_collective_[n] = true;
    const auto root = static_cast<Rank>(rng_.below(P));
    BroadcastMessage msg;
    msg.bytes = p_.broadcast_bytes;
    msg.mtu = p_.broadcast_mtu;
    const std::vector<std::uint8_t> data = rng_.bytes(msg.bytes);
    std::vector<std::uint64_t> entry(P);
    for (std::uint64_t& e : entry) e = rng_.below(p_.think + 1);
    const std::uint64_t id = ++out_.broadcasts;
    auto run = std::make_unique<SoakBroadcast>();
    run->id = id;
    SoakBroadcast* b = run.get();
    // Binomial, adaptive, two-stage in turn; two-stage needs routers that carry tree
    // worms (not the RTL mesh block) with room for a fragment's word.
    const bool two_stage_fits = m_.mesh().core().carries_tree_worms() &&
                                cfg.router.tree_buffer_depth >= kTwoStageMinTreeDepth;
    const std::uint64_t turn = (id - 1) % (two_stage_fits ? 3 : 2);
    if (turn == 2) {
      b->kind = "two-stage";
      std::sort(nodes.begin(), nodes.end());
      b->comm = m_.groups().create(mesh_, nodes, BarrierScheme::BTM);
      broadcasts_.push_back(std::move(run));
      // The ranks enter once every member's register is written.
      for (NodeId n : nodes)
        join(m_.node(n), b->comm, [this, b, root, msg, data, entry](bool in_hardware) {
          // A member whose router had no free register copies nothing: its subtree
          // misses the multicast and the chain brings it the message.
          out_.tree_members_in_hardware += in_hardware;
          ++out_.tree_members;
          if (++b->joined < b->comm.members().size()) return;
          TwoStageOptions opt;
          opt.seed = b->id;
          b->two_stage = std::make_unique<TwoStageRun>(m_, b->comm, root, msg, data, m_.now() + 1, opt,
                                                       [this, b] { finish_broadcast(*b); });
          b->two_stage->schedule(entry);
        });
      next_broadcast(m_.now());
      return;
    }
    b->kind = turn == 1 ? "adaptive" : "binomial";
    const BroadcastTree tree =
        turn == 1 ? AdaptiveBroadcast(mesh_, cfg.timing, nodes, root, adaptive::Swapping::Position).tree()
                  : binomial_broadcast(P, root);
    run->run = std::make_unique<BroadcastRun>(m_, std::move(nodes), tree, msg, std::move(data), m_.now() + 1,
                                              [this, b] { finish_broadcast(*b); });
    run->run->schedule(entry);
    broadcasts_.push_back(std::move(run));
    next_broadcast(m_.now());
  }

  void finish_broadcast(SoakBroadcast& b) {
    if (b.run) b.run->check_buffers();
    else b.two_stage->check_buffers();
    const BroadcastResult& r = *b.result();
    out_.broadcast_messages += r.messages;
    if (b.two_stage) {
      ++out_.two_stage_broadcasts;
      out_.tree_copies_kept += r.two_stage.copies_kept;
      out_.tree_copies_dropped += r.two_stage.copies_dropped + r.two_stage.copies_unposted;
      if (r.two_stage.reliable_sends != (r.ranks.size() - 1) * r.two_stage.fragments)
        out_.violations.push_back(broadcast_name(b) + ": " + std::to_string(r.two_stage.reliable_sends) +
                                  " reliable sends, not (P-1)F");
    }
    for (const Rank rank : r.wrong_buffers)
      out_.violations.push_back("cycle " + std::to_string(m_.now()) + ": " + broadcast_name(b) + ": rank " +
                                std::to_string(rank) + " at " + where(mesh_, r.ranks[rank].node) +
                                " holds bytes that differ from the root's");
    ++out_.broadcasts_done;
    // Freed after this callback returns: the run is still on the stack. A two-stage
    // broadcast's ranks leave its communicator first.
    if (b.two_stage) {
      m_.mesh().at(m_.now() + 1, [this, &b] {
        for (const TreeNode& t : b.comm.members())
          leave(m_.node(t.node), b.comm, [this, &b] {
            if (++b.left == b.comm.members().size()) {
              m_.groups().free(b.comm);
              release_broadcast(b);
            }
          });
      });
      return;
    }
    release_broadcast(b);
  }

  void release_broadcast(SoakBroadcast& b) {
    for (const RankTiming& t : b.result()->ranks) in_collective_[t.node] = false;
    m_.mesh().at(m_.now() + 1, [this, &b] {
      broadcasts_.erase(std::find_if(broadcasts_.begin(), broadcasts_.end(),
                                     [&](const auto& x) { return x.get() == &b; }));
      if (waiting_broadcast_) {
        waiting_broadcast_ = false;
        start_broadcast();
      }
      changed_.notify(sc_core::SC_ZERO_TIME);
    });
  }

  // An allreduce every `gap` cycles until --cycles on free nodes (a node takes part in one
  // point-to-point collective at a time, so its receives match the right messages); its
  // own generator, so that the other streams are those of a soak without it.
  void next_allreduce(std::uint64_t after) {
    const std::uint64_t at = after + p_.allreduce_gap;
    allreduces_pending_ = at < p_.cycles;
    if (!allreduces_pending_) {
      changed_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    m_.mesh().at(at, [this] {
      start_allreduce();
      next_allreduce(m_.now());
    });
  }

  void start_allreduce() {
    const std::size_t P = p_.ranks_per_broadcast(m_.mesh().config());
    std::vector<NodeId> nodes;
    for (NodeId n = 0; n < static_cast<NodeId>(mesh_.nodes()); ++n)
      if (!in_collective_[n]) nodes.push_back(n);
    if (nodes.size() < P) return;
    reduce_rng_.partial_shuffle(nodes.begin(), nodes.end(), P);
    nodes.resize(P);
    for (NodeId n : nodes) in_collective_[n] = true;
    auto a = std::make_unique<SoakAllreduce>();
    a->id = ++out_.allreduces;
    a->nodes = nodes;
    const std::uint64_t turn = a->id - 1;
    a->type = kAllElementTypes[turn % std::size(kAllElementTypes)];
    a->op = a->type == ElementType::Float32 ? ReduceOp::Sum : kAllReduceOps[(turn / 3) % std::size(kAllReduceOps)];
    const std::size_t K = 1 + reduce_rng_.below(16);
    // Every fourth in the routers, where every rank's router has lanes for the vector (an
    // RTL router's are its configuration's, docs/reduction-hardware.md).
    const std::size_t words = K * words_per_element(a->type);
    bool in_network = turn % 4 == 3 && m_.mesh().config().router.barrier_registers > 0;
    for (NodeId n : nodes) in_network = in_network && m_.mesh().core().reduce_words(n) >= words;
    a->schedule = allreduce_schedule(kSoftwareAllreduceAlgorithms[turn % std::size(kSoftwareAllreduceAlgorithms)], P, K);
    a->inputs = allreduce_inputs(a->type, P, K, reduce_rng_.below(std::uint64_t{1} << 62));
    a->results = a->inputs;
    SoakAllreduce* run = a.get();
    allreduces_.push_back(std::move(a));
    if (in_network) join_allreduce(*run);
    else start_software_allreduce(*run);
  }

  void start_software_allreduce(SoakAllreduce& a) {
    SoakAllreduce* run = &a;
    for (std::size_t k = 0; k < a.nodes.size(); ++k)
      run_rank(m_.node(a.nodes[k]), mesh_, a.nodes, a.schedule.actions[k], k, a.op, a.type, a.results[k],
               [this, run](const ReduceRankStats& s) {
                 out_.allreduce_messages += s.messages;
                 if (!s.error.empty()) out_.violations.push_back(allreduce_name(*run) + ": " + s.error);
                 if (++run->finished == run->nodes.size()) finish_allreduce(*run);
               });
  }

  // An allreduce in the routers: its ranks join a BTM group; where a router has no free
  // register (the soak's groups hold them), the ranks leave it again and the allreduce
  // runs in software on its schedule instead.
  void join_allreduce(SoakAllreduce& a) {
    a.comm = std::make_unique<Communicator>(m_.groups().create(mesh_, a.nodes, BarrierScheme::BTM));
    auto in_hardware = std::make_shared<bool>(true);
    auto joined = std::make_shared<std::size_t>(0);
    SoakAllreduce* run = &a;
    for (NodeId n : a.nodes)
      join(m_.node(n), *a.comm, [this, run, in_hardware, joined](bool hw) {
        *in_hardware = *in_hardware && hw;
        if (++*joined < run->nodes.size()) return;
        if (*in_hardware) {
          reduce_in_routers(*run);
        } else {
          ++out_.allreduces_without_registers;
          leave_allreduce(*run, [this, run] { start_software_allreduce(*run); });
        }
      });
  }

  void reduce_in_routers(SoakAllreduce& a) {
    ++out_.allreduces_in_network;
    a.in_routers = true;
    SoakAllreduce* run = &a;
    const ReductionDescriptor desc{a.op, a.type, true, static_cast<std::uint16_t>(a.schedule.elements)};
    for (std::size_t k = 0; k < a.nodes.size(); ++k)
      m_.node(a.nodes[k]).reduce_in_network(a.comm->gid, desc, a.inputs[k], [this, run, k](NiReduce& r) {
        run->results[k] = std::move(r.words);
        if (++run->finished < run->nodes.size()) return;
        leave_allreduce(*run, [this, run] { finish_allreduce(*run); });
      });
  }

  void leave_allreduce(SoakAllreduce& a, std::function<void()> then) {
    auto left = std::make_shared<std::size_t>(0);
    SoakAllreduce* run = &a;
    for (NodeId n : a.nodes)
      leave(m_.node(n), *a.comm, [this, run, left, then] {
        if (++*left < run->nodes.size()) return;
        m_.groups().free(*run->comm);
        run->finished = 0;
        then();
      });
  }

  void finish_allreduce(SoakAllreduce& a) {
    // In the routers: the reduction along the tree, at every rank.
    std::vector<ReduceVector> want;
    if (a.in_routers) {
      // The tree's ranks are its members in node-id order; the soak's ranks are not.
      std::vector<ReduceVector> by_tree_rank(a.nodes.size());
      for (std::size_t k = 0; k < a.nodes.size(); ++k) by_tree_rank[a.comm->tree->rank_of(a.nodes[k])] = a.inputs[k];
      want.assign(a.nodes.size(), reduce_along_tree(*a.comm->tree, a.op, a.type, by_tree_rank));
    } else {
      want = evaluate(a.schedule, a.op, a.type, a.inputs);
    }
    bool right = true;
    for (std::size_t k = 0; k < a.nodes.size() && right; ++k)
      if (a.results[k] != want[k]) {
        out_.violations.push_back("cycle " + std::to_string(m_.now()) + ": " + allreduce_name(a) + ": rank " +
                                  std::to_string(k) + "'s result differs from its schedule's");
        right = false;
      }
    out_.allreduces_done += right;
    for (NodeId n : a.nodes) in_collective_[n] = false;
    allreduces_.erase(std::find_if(allreduces_.begin(), allreduces_.end(), [&](const auto& x) { return x.get() == &a; }));
    // Freed nodes may let a waiting broadcast start.
    if (waiting_broadcast_) {
      waiting_broadcast_ = false;
      start_broadcast();
    }
    changed_.notify(sc_core::SC_ZERO_TIME);
  }

  std::string allreduce_name(const SoakAllreduce& a) const {
    return "allreduce " + std::to_string(a.id) + " (" +
           allreduce_algorithm_name(a.in_routers ? AllreduceAlgorithm::Btm : a.schedule.algorithm) + ", " +
           reduce_op_name(a.op) + " of " + std::to_string(a.schedule.elements) + " " + element_type_name(a.type) +
           ", " + std::to_string(a.nodes.size()) + " ranks)";
  }

  std::string broadcast_name(const SoakBroadcast& b) const {
    const BroadcastResult* r = b.result();
    if (!r) return "broadcast " + std::to_string(b.id) + " (" + b.kind + ", joining its communicator)";
    return "broadcast " + std::to_string(b.id) + " (" + b.kind + ", " + std::to_string(r->ranks.size()) +
           " ranks, from cycle " + std::to_string(r->start_cycle) + ")";
  }

  Machine& m_;
  const SoakParams& p_;
  SoakResult& out_;
  Random rng_;
  MeshShape mesh_;
  std::vector<std::unique_ptr<SoakGroup>> groups_;
  MulticastService* svc_ = nullptr;
  bool multicasts_pending_ = false;
  std::vector<std::unique_ptr<SoakBroadcast>> broadcasts_;  // running
  std::vector<bool> in_collective_;  // by node: a rank of a running broadcast or allreduce
  bool broadcasts_pending_ = false;  // another is scheduled
  bool waiting_broadcast_ = false;   // one waits for free nodes
  std::vector<std::unique_ptr<SoakAllreduce>> allreduces_;  // running
  bool allreduces_pending_ = false;
  Random reduce_rng_;
  sc_core::sc_event changed_;
};

// A scoreboard line about a packet that the corrupt fault changed gets the link it
// crossed there.
std::string with_fault(std::string line, const FaultInjector& faults) {
  for (const Corruption& c : faults.corrupted())
    if (line.find("packet " + std::to_string(c.packet) + ":") != std::string::npos)
      line += "; it crossed " + c.fault.place() + ", where fault injection flipped payload bit " +
              std::to_string(c.bit) + " of flit " + std::to_string(c.seq) + " in cycle " + std::to_string(c.cycle);
  return line;
}

}  // namespace

void SoakParams::validate(const NetworkConfig& cfg) const {
  const auto fail = [](const std::string& m) { throw ConfigError(m); };
  if (cycles < 1) fail("soak needs at least 1 cycle");
  if (!(rate >= 0)) fail("--rate must be in [0, 1] (0: no unicast load), got " + real_text(rate));
  if (rate > 0) {
    TrafficParams t;
    t.rate = rate;
    t.flits = flits;
    t.pattern = pattern;
    t.validate(cfg.mesh);
  }
  if (!(multicast_rate >= 0 && multicast_rate <= 1))
    fail("--multicast-rate must be in [0, 1] (0: no multicasts), got " + real_text(multicast_rate));
  check_rate_expressible(multicast_rate, "--multicast-rate");
  if (multicast_rate > 0) {
    cfg.require_path_worms("--multicast-rate");
    if (cfg.router.ni_ports != 4)
      fail("multicasts in the soak need the all-port NI (--ni all-port): one-port multicast can deadlock");
    if (multicast_dests < 1 || multicast_dests + 1 > static_cast<std::size_t>(cfg.mesh.nodes()))
      fail("--multicast-dests must be between 1 and " + std::to_string(cfg.mesh.nodes() - 1) + " on this mesh");
  }
  const std::size_t size = members_per_group(cfg);
  if (group_count(cfg) > 0 && (size < 2 || size > static_cast<std::size_t>(cfg.mesh.nodes())))
    fail("--group-size must be between 2 and " + std::to_string(cfg.mesh.nodes()) + " on this mesh, got " +
         std::to_string(size));
  if (broadcast_gap > 0 || allreduce_gap > 0) {  // allreduces take as many ranks
    const std::size_t P = ranks_per_broadcast(cfg);
    if (P < 2 || P > static_cast<std::size_t>(cfg.mesh.nodes()))
      fail("--broadcast-ranks must be between 2 and " + std::to_string(cfg.mesh.nodes()) + " on this mesh, got " +
           std::to_string(P));
    if (broadcast_mtu < 1) fail("--broadcast-mtu must be at least 1 byte");
    if (broadcast_bytes / broadcast_mtu > 4096)
      fail("--broadcast-bytes / --broadcast-mtu gives more than 4096 packets per broadcast");
  }
  if (group_count(cfg) > 256) fail("--groups must be at most 256 (8-bit GIDs), got " + std::to_string(group_count(cfg)));
}

std::size_t SoakParams::group_count(const NetworkConfig& cfg) const {
  if (groups >= 0) return static_cast<std::size_t>(groups);
  return std::max<std::size_t>(4, 3 * std::size_t{cfg.router.barrier_registers} + 1);
}

std::size_t SoakParams::ranks_per_broadcast(const NetworkConfig& cfg) const {
  return broadcast_ranks ? broadcast_ranks
                         : std::clamp<std::size_t>(static_cast<std::size_t>(cfg.mesh.nodes()) / 4, 2, 64);
}

std::size_t SoakParams::members_per_group(const NetworkConfig& cfg) const {
  return group_size ? group_size : std::clamp<std::size_t>(static_cast<std::size_t>(cfg.mesh.nodes()) / 2, 2, 256);
}

SoakResult run_soak_experiment(const ValidConfig& cfg, const SoakParams& p, const MachineHook& attach) {
  p.validate(cfg);
  SoakResult out;
  FaultInjector faults(cfg.mesh, p.seed);
  for (const Fault& f : p.faults) faults.add(f);
  ExperimentRun run(cfg, [&](Machine& m) {
    if (!faults.empty()) m.mesh().core().set_faults(&faults);
    if (attach) attach(m);
  });
  Machine& m = run.machine();

  std::unique_ptr<TrafficGenerator> traffic;
  if (p.rate > 0) {
    TrafficParams t;
    t.pattern = p.pattern;
    t.rate = p.rate;
    t.flits = p.flits;
    t.warmup = 0;
    t.cycles = p.cycles;
    t.seed = p.seed;
    t.offer_until_drained = false;
    traffic = std::make_unique<TrafficGenerator>(t, cfg.mesh, 1);
    m.mesh().attach_traffic(traffic.get());
  }
  MulticastSettings ms;
  ms.algorithm = p.algorithm;
  ms.prep = paper_prep_cycles(p.algorithm);
  ms.data_flits = p.multicast_flits;
  MulticastService svc(m, ms);
  Soak soak(m, p, out);
  const std::optional<std::string> error = run.run_reporting(
      [&] {
        soak.start_groups();
        soak.start_multicasts(svc);
        soak.start_broadcasts();
        while (soak.busy()) sc_core::wait(soak.changed());
      },
      "soak");
  if (error) out.violations.push_back(*error);
  if (!out.passed()) soak.report_unfinished();
  out.wall_seconds = run.seconds();
  out.cycles = m.now();

  const Scoreboard& board = m.mesh().scoreboard();
  out.flits_injected = board.expected_flits();
  out.flits_delivered = board.delivered_flits();
  out.worms = board.delivered_packets();
  std::vector<std::string> errors = board.errors();
  if (traffic) {
    const Scoreboard& t = traffic->scoreboard();
    out.flits_injected += t.expected_flits();
    out.flits_delivered += t.delivered_flits();
    out.worms += t.delivered_packets();
    out.unicast_packets = t.delivered_packets();
    errors.insert(errors.end(), t.errors().begin(), t.errors().end());
    if (out.passed() && !traffic->finished())
      out.violations.push_back("unicast load did not drain: " + std::to_string(t.in_flight()) + " packets undelivered");
  }
  errors.insert(errors.end(), svc.errors().begin(), svc.errors().end());
  // Machine::run names the first scoreboard error already; every one is listed.
  if (!errors.empty() && !out.violations.empty() && out.violations.back().rfind("message delivery: ", 0) == 0)
    out.violations.pop_back();
  for (const std::string& e : errors) out.violations.push_back(e);
  if (out.passed() && out.flits_delivered != out.flits_injected)
    out.violations.push_back(std::to_string(out.flits_injected - out.flits_delivered) + " flits never delivered");
  if (out.passed() && out.multicasts_done != out.multicasts)
    out.violations.push_back(std::to_string(out.multicasts - out.multicasts_done) + " multicasts unfinished");
  if (out.passed() && out.allreduces_done != out.allreduces)
    out.violations.push_back(std::to_string(out.allreduces - out.allreduces_done) + " allreduces unfinished");
  if (out.passed() && out.broadcasts_done != out.broadcasts)
    out.violations.push_back(std::to_string(out.broadcasts - out.broadcasts_done) + " broadcasts unfinished");
  for (std::string& v : out.violations) v = with_fault(std::move(v), faults);
  // A fault the checks did not notice is reported too: the soak must not pass with one.
  if (out.passed() && !faults.empty())
    for (const std::string& f : faults.report()) out.violations.push_back(f + ": not detected by any check");
  return out;
}

}  // namespace meshsync

#include "two_stage_run.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace meshsync {

namespace {

// A fragment's message: its index, then its bytes (4 a word).
std::vector<std::uint32_t> fragment_words(const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                                          std::size_t k) {
  std::vector<std::uint32_t> w{static_cast<std::uint32_t>(k)};
  const std::vector<std::uint32_t> body = packet_words(msg, data, k);
  w.insert(w.end(), body.begin(), body.end());
  return w;
}

NetworkInterface::DatagramCounts datagram_counts(Machine& m, const std::vector<NodeId>& nodes) {
  NetworkInterface::DatagramCounts sum;
  for (NodeId n : nodes) {
    const auto& d = m.mesh().ni(n).datagrams();
    sum.kept += d.kept;
    sum.unposted += d.unposted;
    sum.lost += d.lost;
  }
  return sum;
}

}  // namespace

TwoStageRun::TwoStageRun(Machine& m, const Communicator& comm, Rank root, BroadcastMessage msg,
                         std::vector<std::uint8_t> data, std::uint64_t start, TwoStageOptions opt,
                         std::function<void()> finished)
    : m_(m), comm_(comm), root_(root), msg_(two_stage_fragments(msg, m.mesh().config().router.tree_buffer_depth)), data_(std::move(data)), start_(start), opt_(opt),
      finished_(std::move(finished)) {
  for (const TreeNode& t : comm_.members()) nodes_.push_back(t.node);
  if (nodes_.size() < 2) throw std::invalid_argument("TwoStageRun: a broadcast needs two ranks");
  if (root_ >= nodes_.size()) throw std::invalid_argument("TwoStageRun: the root is not a rank");
  const std::size_t F = msg_.packets();
  state_.resize(nodes_.size());
  for (RankState& s : state_) {
    s.have = FragmentBitmap(F);
    s.by_multicast.assign(F, false);
  }
  out_.start_cycle = start;
  out_.ranks.resize(nodes_.size());
  for (Rank r = 0; r < nodes_.size(); ++r) out_.ranks[r].node = nodes_[r];
  out_.two_stage.ran = true;
  out_.two_stage.fragments = F;
  out_.two_stage.fragment_bytes = msg_.packet_bytes(0);
  if (opt_.stage0 == Stage0::Sync) out_.two_stage.sync_rank = sync_rank(opt_.seed, opt_.call, root_, nodes_.size());
  // The NIs count copies over their lifetime: this run's are the difference.
  datagrams_before_ = datagram_counts(m_, nodes_);
  dropped_before_ = m_.mesh().core().counters().tree_copies_dropped;
}

void TwoStageRun::schedule(const std::vector<std::uint64_t>& entry) {
  if (entry.size() != nodes_.size()) throw std::invalid_argument("TwoStageRun: entries and ranks differ in size");
  for (Rank r = 0; r < nodes_.size(); ++r) m_.mesh().at(start_ + entry[r], [this, r] { enter(r); });
}

void TwoStageRun::enter(Rank r) {
  RankState& s = state_[r];
  out_.ranks[r].entered = m_.now() - start_;
  if (r == root_) {
    s.buffer = data_;
    for (std::size_t k = 0; k < s.have.size(); ++k) s.have.set(k);
    out_.ranks[r].received = out_.ranks[r].entered;
    switch (opt_.stage0) {
      case Stage0::None: root_stage1(); break;
      case Stage0::Delay: m_.mesh().at(m_.now() + opt_.root_delay, [this] { root_stage1(); }); break;
      case Stage0::Sync: {
        // The root waits for the one rank the communicator's generator chose.
        const NiMatch from_sync{NiMatch::Kind::Message, nodes_[*out_.two_stage.sync_rank]};
        m_.node(nodes_[r]).receive(
            [this](NiReceive&) {
              delivered(*out_.two_stage.sync_rank);
              root_stage1();
            },
            from_sync);
        break;
      }
    }
    return;
  }
  s.buffer.assign(static_cast<std::size_t>(msg_.bytes), 0);
  // Receive buffers for the multicast first: from now on a copy that reaches this NI is
  // kept (before, it was dropped: this rank had not entered).
  m_.node(nodes_[r]).listen(comm_.gid, true, [this, r] {
    state_[r].listening = true;
    post_tree_receive(r);
  });
  post_chain_receive(r);
  if (out_.two_stage.sync_rank == r) {
    s.ops.push_back({Op::Sync, 0});
    pump(r);
  }
}

void TwoStageRun::root_stage1() {
  RankState& s = state_[root_];
  for (std::size_t k = 0; k < s.have.size(); ++k) s.ops.push_back({Op::Multicast, k});
  for (std::size_t k = 0; k < s.have.size(); ++k) s.ops.push_back({Op::Chain, k});
  pump(root_);
}

void TwoStageRun::post_tree_receive(Rank r) {
  NiMatch copies{NiMatch::Kind::Tree, std::nullopt, comm_.gid};
  m_.node(nodes_[r]).receive(
      [this, r](NiReceive& got) {
        if (!got.tree) return;  // withdrawn: the rank has every fragment
        on_fragment(r, got, true);
        if (!state_[r].have.full()) post_tree_receive(r);
      },
      copies);
}

void TwoStageRun::post_chain_receive(Rank r) {
  const NiMatch from_predecessor{NiMatch::Kind::Message, nodes_[predecessor(r)]};
  m_.node(nodes_[r]).receive(
      [this, r](NiReceive& got) {
        RankState& s = state_[r];
        ++s.chain_in;
        delivered(predecessor(r));
        on_fragment(r, got, false);
        if (s.chain_in < s.have.size()) post_chain_receive(r);
        else maybe_done(r);
      },
      from_predecessor);
}

void TwoStageRun::on_fragment(Rank r, const NiReceive& got, bool from_multicast) {
  RankState& s = state_[r];
  const std::size_t k = got.words.at(0);
  if (k >= s.have.size())
    throw std::logic_error("two-stage broadcast: rank " + std::to_string(r) + " got fragment " + std::to_string(k));
  if (!s.have.set(k)) return;  // a second copy changes nothing
  s.by_multicast[k] = from_multicast;
  const std::uint64_t first = static_cast<std::uint64_t>(k) * msg_.mtu;
  for (std::uint64_t i = 0; i < msg_.packet_bytes(k); ++i)
    s.buffer[first + i] = static_cast<std::uint8_t>(got.words.at(1 + i / kBytesPerFlit) >> (8 * (i % kBytesPerFlit)));
  if (!last_in_chain(r)) {
    s.ops.push_back({Op::Chain, k});
    pump(r);
  }
  if (s.have.full()) {
    out_.ranks[r].received = m_.now() - start_;
    // No more copies wanted: withdraw the receive buffers (a posted receive ends empty).
    s.listening = false;
    m_.node(nodes_[r]).listen(comm_.gid, false, [] {});
    maybe_done(r);
  }
}

void TwoStageRun::pump(Rank r) {
  RankState& s = state_[r];
  if (s.sending || s.ops.empty()) return;
  const Op op = s.ops.front();
  s.ops.pop_front();
  s.sending = true;
  const bool until_delivered = opt_.send.until_delivered;
  const auto sent = [this, r, until_delivered] {
    state_[r].sending = false;
    if (!until_delivered) out_.ranks[r].forwarded = m_.now() - start_;
    pump(r);
    maybe_done(r);
  };
  Node& me = m_.node(nodes_[r]);
  const auto point_to_point = [&](Rank to, std::vector<std::uint32_t> words) {
    ++out_.messages;
    out_.hops += static_cast<std::uint64_t>(hops(m_.mesh().mesh().coord(nodes_[r]), m_.mesh().mesh().coord(nodes_[to])));
    if (until_delivered) ++s.undelivered;
    me.send(nodes_[to], std::move(words), sent, opt_.send.cost);
  };
  switch (op.kind) {
    case Op::Sync: point_to_point(root_, {}); break;
    case Op::Chain:
      ++out_.two_stage.reliable_sends;
      point_to_point(successor(r), fragment_words(msg_, data_, op.fragment));
      break;
    case Op::Multicast: {
      ++out_.two_stage.multicasts;
      NiTreeMulticast cmd;
      cmd.gid = comm_.gid;
      cmd.member = comm_.tree->root();
      cmd.words = fragment_words(msg_, data_, op.fragment);
      cmd.data_flits = static_cast<std::uint16_t>(cmd.words.size());
      cmd.members = nodes_;
      cmd.cost = opt_.send.multicast_cost();
      // A datagram is complete once posted: nothing tells its sender of its delivery.
      if (until_delivered) out_.ranks[r].forwarded = m_.now() - start_;
      me.tree_multicast(std::move(cmd), [sent](NiTreeMulticast&) { sent(); });
      break;
    }
  }
}

void TwoStageRun::delivered(Rank sender) {
  if (!opt_.send.until_delivered) return;
  --state_[sender].undelivered;
  out_.ranks[sender].forwarded = m_.now() - start_;
  maybe_done(sender);
}

void TwoStageRun::maybe_done(Rank r) {
  RankState& s = state_[r];
  if (!s.done && s.have.full() && !s.sending && s.ops.empty() && s.undelivered == 0) {
    s.done = true;
    RankTiming& t = out_.ranks[r];
    if (last_in_chain(r)) t.forwarded = t.received;
  }
  // Drained: done, and every chain message from the predecessor taken (a rank that had
  // the message from the multicast still receives the chain's copies).
  if (s.done && !s.drained && (r == root_ || s.chain_in == s.have.size())) {
    s.drained = true;
    if (++drained_ == nodes_.size()) {
      all_done_.notify(sc_core::SC_ZERO_TIME);
      if (finished_) finished_();
    }
  }
}

void TwoStageRun::check_buffers() {
  out_.wrong_buffers.clear();
  for (Rank r = 0; r < nodes_.size(); ++r)
    if (state_[r].buffer != data_) out_.wrong_buffers.push_back(r);
  TwoStageStats& t = out_.two_stage;
  const auto after = datagram_counts(m_, nodes_);
  t.copies_kept = after.kept - datagrams_before_.kept;
  t.copies_unposted = after.unposted - datagrams_before_.unposted;
  t.copies_lost = after.lost - datagrams_before_.lost;
  t.copies_dropped = m_.mesh().core().counters().tree_copies_dropped - dropped_before_;
  t.chain_received = 0;
  for (const RankState& s : state_) t.chain_received += s.chain_in;
  // Penalty rounds per fragment along the chain, the most of them per rank.
  const std::size_t P = nodes_.size();
  t.penalty_rounds.assign(P, 0);
  for (std::size_t k = 0; k < t.fragments; ++k) {
    std::vector<bool> missed(P, false);
    for (Rank r = 0; r < P; ++r)
      if (r != root_) missed[relative(r)] = !state_[r].by_multicast[k];
    const std::vector<int> k_r = penalty_rounds(missed);
    for (Rank r = 0; r < P; ++r) t.penalty_rounds[r] = std::max(t.penalty_rounds[r], k_r[relative(r)]);
  }
}

BroadcastResult run_two_stage_broadcast(Machine& m, const std::vector<NodeId>& rank_nodes, Rank root,
                                        const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                                        const std::vector<std::uint64_t>& entry, const TwoStageOptions& opt,
                                        std::size_t threshold) {
  if (!uses_two_stage(rank_nodes.size(), threshold)) {
    BroadcastResult r =
        run_broadcast(m, rank_nodes, binomial_broadcast(rank_nodes.size(), root), msg, data, entry, opt.send);
    r.two_stage.fallback = true;
    return r;
  }
  if (!std::is_sorted(rank_nodes.begin(), rank_nodes.end()))
    throw std::invalid_argument("run_two_stage_broadcast: ranks must be in node-id order");
  m.mesh().wait_idle();
  const Communicator comm = m.groups().create(m.mesh().mesh(), rank_nodes, BarrierScheme::BTM);
  for (NodeId n : rank_nodes) join(m.node(n), comm);
  m.mesh().wait_idle();
  BroadcastResult out;
  {
    TwoStageRun run(m, comm, root, msg, data, m.now() + 1, opt);
    run.schedule(entry);
    while (!run.finished()) sc_core::wait(run.all_done());
    m.mesh().wait_idle();
    run.check_buffers();
    out = std::move(run).result();
  }
  for (NodeId n : rank_nodes) leave(m.node(n), comm);
  m.groups().free(comm);
  m.mesh().wait_idle();
  return out;
}

}  // namespace meshsync

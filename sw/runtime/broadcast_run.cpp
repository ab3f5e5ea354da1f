#include "broadcast_run.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

namespace meshsync {

std::uint64_t BroadcastMessage::packet_bytes(std::size_t k) const {
  const std::uint64_t first = static_cast<std::uint64_t>(k) * mtu;
  return bytes > first ? std::min(mtu, bytes - first) : 0;
}

std::uint64_t BroadcastResult::latency() const {
  std::uint64_t last = 0;
  for (const RankTiming& r : ranks) last = std::max(last, r.completion());
  return last;
}

namespace {

// Every rank's software. A rank forwards each packet to its children as soon as it has
// it (packet after packet, each to every child in send order), one send at a time: a send
// keeps the software busy for its start-up.
class BroadcastRanks {
 public:
  BroadcastRanks(Machine& m, const std::vector<NodeId>& nodes, const BroadcastTree& tree,
                 const BroadcastMessage& msg, const std::vector<std::uint8_t>& data, std::uint64_t start)
      : m_(m), nodes_(nodes), tree_(tree), msg_(msg), data_(data), start_(start), state_(nodes.size()), sent_at_first_(nodes.size(), 0) {
    out_.start_cycle = start;
    out_.ranks.resize(nodes.size());
    out_.edge_latency.assign(nodes.size(), std::nullopt);
    for (Rank r = 0; r < nodes.size(); ++r) out_.ranks[r].node = nodes[r];
  }

  void enter(Rank r) {
    out_.ranks[r].entered = m_.now() - start_;
    if (r == tree_.root) {
      state_[r].buffer = data_;
      for (std::size_t k = 0; k < msg_.packets(); ++k) forward(r, k);
      have_all(r);
    } else {
      post_receive(r);
    }
  }

  bool finished() const { return completed_ == nodes_.size(); }
  sc_core::sc_event& all_done() { return all_done_; }
  BroadcastResult result() && { return std::move(out_); }

  // Compared here rather than thrown: an exception inside a SystemC process would reach
  // the caller as the kernel's, not as a SimulationError.
  void check_buffers() {
    for (Rank r = 0; r < nodes_.size(); ++r)
      if (state_[r].buffer != data_) out_.wrong_buffers.push_back(r);
  }

 private:
  struct Send {
    std::size_t packet;
    Rank child;
  };
  struct RankState {
    std::vector<std::uint8_t> buffer;
    std::size_t packets = 0;  // received so far
    std::deque<Send> sends;
    bool sending = false;
    bool have_all = false;
    bool done = false;
  };

  std::vector<std::uint32_t> words(std::size_t k) const {
    const std::uint64_t first = static_cast<std::uint64_t>(k) * msg_.mtu;
    std::vector<std::uint32_t> w((msg_.packet_bytes(k) + kBytesPerFlit - 1) / kBytesPerFlit, 0);
    for (std::uint64_t i = 0; i < msg_.packet_bytes(k); ++i)
      w[i / kBytesPerFlit] |= std::uint32_t{data_[first + i]} << (8 * (i % kBytesPerFlit));
    return w;
  }

  void post_receive(Rank r) {
    m_.node(nodes_[r]).receive([this, r](NiReceive& got) { on_packet(r, got); });
  }

  void on_packet(Rank r, const NiReceive& got) {
    RankState& s = state_[r];
    if (!tree_.parent[r] || got.src != nodes_[*tree_.parent[r]])
      throw std::logic_error("broadcast: rank " + std::to_string(r) + " got a message from a node that is not its parent");
    const std::size_t k = s.packets++;
    if (k == 0) out_.edge_latency[r] = got.cycle - sent_at_first_[r];
    // Packets between two nodes arrive in order (one XY path, one worm VC).
    for (std::uint64_t i = 0; i < msg_.packet_bytes(k); ++i)
      s.buffer.push_back(static_cast<std::uint8_t>(got.words.at(i / kBytesPerFlit) >> (8 * (i % kBytesPerFlit))));
    forward(r, k);
    if (s.packets < msg_.packets()) post_receive(r);
    else have_all(r);
  }

  void have_all(Rank r) {
    state_[r].have_all = true;
    out_.ranks[r].received = m_.now() - start_;
    maybe_done(r);
  }

  void forward(Rank r, std::size_t k) {
    for (Rank c : tree_.children[r]) state_[r].sends.push_back({k, c});
    pump(r);
  }

  void pump(Rank r) {
    RankState& s = state_[r];
    if (s.sending || s.sends.empty()) return;
    const Send next = s.sends.front();
    s.sends.pop_front();
    s.sending = true;
    if (next.packet == 0) sent_at_first_[next.child] = m_.now();
    const NodeId from = nodes_[r], to = nodes_[next.child];
    ++out_.messages;
    out_.hops += static_cast<std::uint64_t>(hops(m_.mesh().mesh().coord(from), m_.mesh().mesh().coord(to)));
    m_.node(from).send(to, words(next.packet), [this, r] {
      state_[r].sending = false;
      out_.ranks[r].forwarded = m_.now() - start_;
      pump(r);
      maybe_done(r);
    });
  }

  void maybe_done(Rank r) {
    RankState& s = state_[r];
    if (s.done || !s.have_all || s.sending || !s.sends.empty()) return;
    s.done = true;
    RankTiming& t = out_.ranks[r];
    if (tree_.children[r].empty()) t.forwarded = t.received;
    if (++completed_ == nodes_.size()) all_done_.notify(sc_core::SC_ZERO_TIME);
  }

  Machine& m_;
  const std::vector<NodeId>& nodes_;
  const BroadcastTree& tree_;
  const BroadcastMessage& msg_;
  const std::vector<std::uint8_t>& data_;
  std::uint64_t start_;
  std::vector<RankState> state_;
  std::vector<std::uint64_t> sent_at_first_;  // by child: its first packet's send call
  std::size_t completed_ = 0;
  sc_core::sc_event all_done_;
  BroadcastResult out_;
};

}  // namespace

BroadcastResult run_broadcast(Machine& m, const std::vector<NodeId>& rank_nodes, const BroadcastTree& tree,
                              const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                              const std::vector<std::uint64_t>& entry) {
  if (tree.size() != rank_nodes.size() || entry.size() != rank_nodes.size())
    throw std::invalid_argument("run_broadcast: tree, nodes and entries differ in size");
  m.mesh().wait_idle();
  const std::uint64_t start = m.now() + 1;
  BroadcastRanks ranks(m, rank_nodes, tree, msg, data, start);
  for (Rank r = 0; r < rank_nodes.size(); ++r) m.mesh().at(start + entry[r], [&ranks, r] { ranks.enter(r); });
  while (!ranks.finished()) sc_core::wait(ranks.all_done());
  m.mesh().wait_idle();
  ranks.check_buffers();
  return std::move(ranks).result();
}

}  // namespace meshsync

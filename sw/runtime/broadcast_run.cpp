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

BroadcastRun::BroadcastRun(Machine& m, std::vector<NodeId> nodes, BroadcastTree tree, BroadcastMessage msg,
                           std::vector<std::uint8_t> data, std::uint64_t start, std::function<void()> finished,
                           SendModel send)
    : m_(m), nodes_(std::move(nodes)), tree_(std::move(tree)), msg_(msg), data_(std::move(data)), start_(start),
      finished_(std::move(finished)), send_(send), state_(nodes_.size()), sent_at_first_(nodes_.size(), 0) {
  if (tree_.size() != nodes_.size()) throw std::invalid_argument("BroadcastRun: tree and nodes differ in size");
  out_.start_cycle = start;
  out_.ranks.resize(nodes_.size());
  out_.edge_latency.assign(nodes_.size(), std::nullopt);
  for (Rank r = 0; r < nodes_.size(); ++r) out_.ranks[r].node = nodes_[r];
}

void BroadcastRun::schedule(const std::vector<std::uint64_t>& entry) {
  if (entry.size() != nodes_.size()) throw std::invalid_argument("BroadcastRun: entries and nodes differ in size");
  for (Rank r = 0; r < nodes_.size(); ++r) m_.mesh().at(start_ + entry[r], [this, r] { enter(r); });
}

void BroadcastRun::enter(Rank r) {
  out_.ranks[r].entered = m_.now() - start_;
  if (r == tree_.root) {
    state_[r].buffer = data_;
    for (std::size_t k = 0; k < msg_.packets(); ++k) forward(r, k);
    have_all(r);
  } else {
    post_receive(r);
  }
}

// Compared here rather than thrown: an exception inside a SystemC process would reach
// the caller as the kernel's, not as a SimulationError.
void BroadcastRun::check_buffers() {
  out_.wrong_buffers.clear();
  for (Rank r = 0; r < nodes_.size(); ++r)
    if (state_[r].buffer != data_) out_.wrong_buffers.push_back(r);
}

std::vector<std::uint32_t> packet_words(const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                                        std::size_t k) {
  const std::uint64_t first = static_cast<std::uint64_t>(k) * msg.mtu;
  std::vector<std::uint32_t> w((msg.packet_bytes(k) + kBytesPerFlit - 1) / kBytesPerFlit, 0);
  for (std::uint64_t i = 0; i < msg.packet_bytes(k); ++i)
    w[i / kBytesPerFlit] |= std::uint32_t{data[first + i]} << (8 * (i % kBytesPerFlit));
  return w;
}

std::vector<std::uint32_t> BroadcastRun::words(std::size_t k) const { return packet_words(msg_, data_, k); }

void BroadcastRun::post_receive(Rank r) {
  // Only the parent's point-to-point packets: multicast copies and other software's
  // messages to this node are not the broadcast's (NiMatch).
  const NiMatch from_parent{NiMatch::Kind::Message, nodes_[*tree_.parent[r]]};
  m_.node(nodes_[r]).receive([this, r](NiReceive& got) { on_packet(r, got); }, from_parent);
}

void BroadcastRun::on_packet(Rank r, const NiReceive& got) {
  RankState& s = state_[r];
  if (!tree_.parent[r] || got.src != nodes_[*tree_.parent[r]])
    throw std::logic_error("broadcast: rank " + std::to_string(r) + " got a message from a node that is not its parent");
  const std::size_t k = s.packets++;
  if (k == 0) out_.edge_latency[r] = got.cycle - sent_at_first_[r];
  if (send_.until_delivered) {
    // The parent's send is complete: delivered.
    const Rank parent = *tree_.parent[r];
    --state_[parent].undelivered;
    out_.ranks[parent].forwarded = m_.now() - start_;
    maybe_done(parent);
  }
  // Packets between two nodes arrive in order (one XY path, one worm VC).
  for (std::uint64_t i = 0; i < msg_.packet_bytes(k); ++i)
    s.buffer.push_back(static_cast<std::uint8_t>(got.words.at(i / kBytesPerFlit) >> (8 * (i % kBytesPerFlit))));
  forward(r, k);
  if (s.packets < msg_.packets()) post_receive(r);
  else have_all(r);
}

void BroadcastRun::have_all(Rank r) {
  state_[r].have_all = true;
  out_.ranks[r].received = m_.now() - start_;
  maybe_done(r);
}

void BroadcastRun::forward(Rank r, std::size_t k) {
  for (Rank c : tree_.children[r]) state_[r].sends.push_back({k, c});
  pump(r);
}

void BroadcastRun::pump(Rank r) {
  RankState& s = state_[r];
  if (s.sending || s.sends.empty()) return;
  const Send next = s.sends.front();
  s.sends.pop_front();
  s.sending = true;
  if (next.packet == 0) sent_at_first_[next.child] = m_.now();
  const NodeId from = nodes_[r], to = nodes_[next.child];
  ++out_.messages;
  out_.hops += static_cast<std::uint64_t>(hops(m_.mesh().mesh().coord(from), m_.mesh().mesh().coord(to)));
  if (send_.until_delivered) ++s.undelivered;
  m_.node(from).send(
      to, words(next.packet),
      [this, r] {
        state_[r].sending = false;
        if (!send_.until_delivered) out_.ranks[r].forwarded = m_.now() - start_;
        pump(r);
        maybe_done(r);
      },
      send_.cost);
}

void BroadcastRun::maybe_done(Rank r) {
  RankState& s = state_[r];
  if (s.done || !s.have_all || s.sending || !s.sends.empty() || s.undelivered > 0) return;
  s.done = true;
  RankTiming& t = out_.ranks[r];
  if (tree_.children[r].empty()) t.forwarded = t.received;
  if (++completed_ == nodes_.size()) {
    all_done_.notify(sc_core::SC_ZERO_TIME);
    if (finished_) finished_();
  }
}

BroadcastResult run_broadcast(Machine& m, const std::vector<NodeId>& rank_nodes, const BroadcastTree& tree,
                              const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                              const std::vector<std::uint64_t>& entry, const SendModel& send) {
  if (tree.size() != rank_nodes.size() || entry.size() != rank_nodes.size())
    throw std::invalid_argument("run_broadcast: tree, nodes and entries differ in size");
  m.mesh().wait_idle();
  BroadcastRun ranks(m, rank_nodes, tree, msg, data, m.now() + 1, {}, send);
  ranks.schedule(entry);
  while (!ranks.finished()) sc_core::wait(ranks.all_done());
  m.mesh().wait_idle();
  ranks.check_buffers();
  return std::move(ranks).result();
}

}  // namespace meshsync

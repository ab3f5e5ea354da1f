// A broadcast over ordinary point-to-point messages in the simulated mesh: every rank's
// software, as callbacks on its node (no thread per node, so a 64x64 communicator runs
// fast), receives the message from its parent and forwards it to its children along a
// BroadcastTree (binomial or adaptive). docs/broadcast.md defines what is measured.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "../collective/broadcast_tree.hpp"
#include "machine.hpp"

namespace meshsync {

// A body flit carries one 32-bit model word: 4 bytes of the message (docs/broadcast.md;
// the RTL flit's 30-bit payload would hold 3).
inline constexpr std::uint64_t kBytesPerFlit = 4;

// What each send of a broadcast costs its rank (docs/broadcast.md, "The cost of a send"):
// without a SendCost the start-up t_s of CPU time, the head entering the router as it
// ends; with one, LogP's overhead o, latency L and gap g, and for a tree multicast
// (the two-stage broadcast's stage 1) `multicast_latency` in place of L when set.
// `until_delivered`: a rank leaves the broadcast once its last message is delivered, not
// once it is posted.
struct SendModel {
  std::optional<SendCost> cost;
  bool until_delivered = false;
  std::optional<std::uint32_t> multicast_latency;
  std::optional<SendCost> multicast_cost() const {
    std::optional<SendCost> c = cost;
    if (c && multicast_latency) c->latency = *multicast_latency;
    return c;
  }
};

// The message: `bytes` split into packets of at most `mtu` bytes, each one worm of a head
// and ceil(packet bytes / 4) body flits. A 0-byte message is one head-only packet.
struct BroadcastMessage {
  std::uint64_t bytes = 2;
  std::uint64_t mtu = 256;
  std::size_t packets() const { return bytes == 0 ? 1 : static_cast<std::size_t>((bytes + mtu - 1) / mtu); }
  std::uint64_t packet_bytes(std::size_t k) const;
  std::uint64_t flits(std::size_t k) const { return 1 + (packet_bytes(k) + kBytesPerFlit - 1) / kBytesPerFlit; }
};

// One rank's broadcast, in cycles after the common start.
struct RankTiming {
  NodeId node = 0;
  std::uint64_t entered = 0;    // it called broadcast (later than 0 under --skew)
  std::uint64_t received = 0;   // it had every packet (the root: when it entered)
  std::uint64_t forwarded = 0;  // its last send returned: the head of its last forward is
                                // in its router (= received when it has no children); with
                                // SendModel::until_delivered, its last message was delivered
  std::uint64_t completion() const { return received > forwarded ? received : forwarded; }
};

// The message's packet k as body words, 4 bytes a word, little end first.
std::vector<std::uint32_t> packet_words(const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                                        std::size_t k);

// What only the two-stage broadcast has (NOTES-broadcast B1).
struct TwoStageStats {
  bool ran = false;       // stage 1 and 2 ran
  bool fallback = false;  // fewer ranks than the threshold: TUNED's binomial tree ran
  std::size_t fragments = 0;
  std::uint64_t fragment_bytes = 0;  // the largest (two_stage_fragments)
  std::optional<Rank> sync_rank;  // stage 0 "sync": the rank the root waited for
  std::uint64_t multicasts = 0;      // stage 1: tree multicasts the root sent (F)
  std::uint64_t reliable_sends = 0;  // stage 2: chain messages sent, (P-1) F ...
  std::uint64_t chain_received = 0;  // ... and taken by their receivers
  // Stage 1 copies: taken by a rank, dropped at an NI with no receive posted (the rank
  // had not entered, or had finished), dropped by the extra loss, dropped in a router.
  std::uint64_t copies_kept = 0, copies_unposted = 0, copies_lost = 0, copies_dropped = 0;
  std::vector<int> penalty_rounds;  // by rank: the most over the fragments (B1's k_r)
};

struct BroadcastResult {
  std::uint64_t start_cycle = 0;
  std::vector<RankTiming> ranks;
  // By rank: send call to tail delivery of the first packet from its parent.
  std::vector<std::optional<std::uint64_t>> edge_latency;
  std::uint64_t messages = 0;  // packets sent
  std::uint64_t hops = 0;      // links the packets crossed
  // Ranks whose bytes differ from the root's after the broadcast (none, unless broken).
  std::vector<Rank> wrong_buffers;
  TwoStageStats two_stage;
  std::uint64_t latency() const;  // the last rank's completion
};

// A broadcast in progress: every rank's software as callbacks on its node. A rank
// forwards each packet to its children as soon as it has it (packet after packet, each to
// every child in send order), one send at a time: a send keeps the software busy for its
// start-up. A rank receives only its parent's point-to-point packets (NiMatch), so other
// software may use the same nodes meanwhile (the soak's multicasts); two broadcasts at
// once must not give a node the same parent, as nothing tells their packets apart.
class BroadcastRun {
 public:
  // `finished` (optional) runs once every rank completed; the network may still hold the
  // last credits, and the buffers are compared only by check_buffers.
  BroadcastRun(Machine& m, std::vector<NodeId> nodes, BroadcastTree tree, BroadcastMessage msg,
               std::vector<std::uint8_t> data, std::uint64_t start, std::function<void()> finished = {},
               SendModel send = {});
  BroadcastRun(const BroadcastRun&) = delete;
  BroadcastRun& operator=(const BroadcastRun&) = delete;
  // Rank r enters at start + entry[r].
  void schedule(const std::vector<std::uint64_t>& entry);
  bool finished() const { return completed_ == nodes_.size(); }
  std::size_t completed() const { return completed_; }  // ranks done: received and forwarded
  sc_core::sc_event& all_done() { return all_done_; }
  // Fills result().wrong_buffers: the ranks whose bytes differ from the root's.
  void check_buffers();
  const BroadcastResult& result() const& { return out_; }
  BroadcastResult result() && { return std::move(out_); }

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
    std::size_t undelivered = 0;  // SendModel::until_delivered: sent, not yet at the child
  };
  void enter(Rank r);
  std::vector<std::uint32_t> words(std::size_t k) const;
  void post_receive(Rank r);
  void on_packet(Rank r, const NiReceive& got);
  void have_all(Rank r);
  void forward(Rank r, std::size_t k);
  void pump(Rank r);
  void maybe_done(Rank r);

  Machine& m_;
  std::vector<NodeId> nodes_;
  BroadcastTree tree_;
  BroadcastMessage msg_;
  std::vector<std::uint8_t> data_;
  std::uint64_t start_;
  std::function<void()> finished_;
  SendModel send_;
  std::vector<RankState> state_;
  std::vector<std::uint64_t> sent_at_first_;  // by child: its first packet's send call
  std::size_t completed_ = 0;
  sc_core::sc_event all_done_;
  BroadcastResult out_;
};

// Call from a driver thread of a running Machine whose network is idle: rank r enters at
// start + entry[r] (all zero: together). Returns once every rank completed and the
// network drained; every rank's bytes are then compared with the root's.
BroadcastResult run_broadcast(Machine& m, const std::vector<NodeId>& rank_nodes, const BroadcastTree& tree,
                              const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                              const std::vector<std::uint64_t>& entry, const SendModel& send = {});

}  // namespace meshsync

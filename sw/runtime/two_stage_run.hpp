// Hoefler, Siebert and Rehm's two-stage broadcast in the simulator (docs/broadcast.md,
// "The two-stage broadcast"): an optional stage 0 (a root delay, or the root waiting for
// one randomly chosen rank), stage 1 an unreliable hardware multicast of the message's
// indexed fragments down the communicator's BTM tree (tree worms,
// docs/tree-multicast.md), stage 2 the reliable chain 0 -> 1 -> ... -> P-1 in relative
// ranks, each rank forwarding every fragment once, as soon as it owns it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <vector>

#include "../collective/two_stage.hpp"
#include "broadcast_run.hpp"
#include "communicator.hpp"

namespace meshsync {

enum class Stage0 : std::uint8_t { None, Delay, Sync };

// The smallest tree VC that carries a fragment: a head, the fragment index and a word.
inline constexpr std::uint32_t kTwoStageMinTreeDepth = 3;

// The fragments stage 1 multicasts: the message's packets, or smaller ones where such a
// packet's tree worm would not fit the tree VC (`tree_depth` flits): the NI fragments to
// fit, as a hardware tree VC shorter than the MTU asks (docs/broadcast.md, "Fragments").
inline BroadcastMessage two_stage_fragments(BroadcastMessage msg, std::uint32_t tree_depth) {
  if (tree_depth < kTwoStageMinTreeDepth) throw std::invalid_argument("two-stage broadcast: a tree VC of under 3 flits");
  const std::uint64_t fits = std::uint64_t{tree_depth - 2} * kBytesPerFlit;
  if (msg.mtu > fits) msg.mtu = fits;
  return msg;
}

struct TwoStageOptions {
  Stage0 stage0 = Stage0::Sync;
  std::uint64_t root_delay = 0;  // Delay: cycles the root waits after entering
  std::uint64_t seed = 1;        // the communicator's generator (the synchronization rank)
  std::uint64_t call = 0;        // which broadcast of the communicator this is
  SendModel send;                // what its sends cost (docs/broadcast.md)
};

// The fragments (two_stage_fragments) are packets of the message; a fragment's message
// (multicast or chain) carries its index in the first body word, its bytes after it.
class TwoStageRun {
 public:
  // `comm` holds the ranks' nodes (its members in node-id order are the ranks) and must
  // have been joined by every member (its registers programmed): its GID and BTM tree
  // carry stage 1. `finished` runs once every rank completed and the chain has drained.
  TwoStageRun(Machine& m, const Communicator& comm, Rank root, BroadcastMessage msg, std::vector<std::uint8_t> data,
              std::uint64_t start, TwoStageOptions opt, std::function<void()> finished = {});
  TwoStageRun(const TwoStageRun&) = delete;
  TwoStageRun& operator=(const TwoStageRun&) = delete;

  void schedule(const std::vector<std::uint64_t>& entry);
  bool finished() const { return drained_ == nodes_.size(); }
  std::size_t completed() const { return drained_; }  // ranks done and drained
  sc_core::sc_event& all_done() { return all_done_; }
  // Fills the result's wrong_buffers, penalty rounds and the NIs' datagram counts.
  void check_buffers();
  const BroadcastResult& result() const& { return out_; }
  BroadcastResult result() && { return std::move(out_); }

 private:
  // What a rank's software sends, one at a time (each send is a start-up): the arrival
  // message of stage 0, the root's multicasts, and chain forwards.
  struct Op {
    enum Kind : std::uint8_t { Sync, Multicast, Chain } kind;
    std::size_t fragment;
  };
  struct RankState {
    std::vector<std::uint8_t> buffer;
    FragmentBitmap have{0};
    std::vector<bool> by_multicast;  // per fragment: its first copy came from stage 1
    std::deque<Op> ops;
    std::size_t chain_in = 0;          // chain messages taken from the predecessor
    bool listening = false;
    bool sending = false;
    bool done = false;
    bool drained = false;
    std::size_t undelivered = 0;  // SendModel::until_delivered: sent, not yet received
  };
  void delivered(Rank sender);
  Rank relative(Rank r) const { return (r + nodes_.size() - root_) % nodes_.size(); }
  bool last_in_chain(Rank r) const { return relative(r) + 1 == nodes_.size(); }
  Rank successor(Rank r) const { return (r + 1) % nodes_.size(); }
  Rank predecessor(Rank r) const { return (r + nodes_.size() - 1) % nodes_.size(); }
  void enter(Rank r);
  void root_stage1();
  void multicast(std::size_t k);
  void post_tree_receive(Rank r);
  void post_chain_receive(Rank r);
  void on_fragment(Rank r, const NiReceive& got, bool from_multicast);
  void pump(Rank r);
  void maybe_done(Rank r);

  Machine& m_;
  const Communicator& comm_;
  std::vector<NodeId> nodes_;
  Rank root_;
  BroadcastMessage msg_;
  std::vector<std::uint8_t> data_;
  std::uint64_t start_;
  TwoStageOptions opt_;
  std::function<void()> finished_;
  std::vector<RankState> state_;
  std::size_t drained_ = 0;
  sc_core::sc_event all_done_;
  BroadcastResult out_;
  // What the NIs and routers had counted before this run (their counters never reset).
  NetworkInterface::DatagramCounts datagrams_before_;
  std::uint64_t dropped_before_ = 0;
};

// From a driver thread of a running Machine whose network is idle: creates a BTM
// communicator of `rank_nodes`, joins every member, broadcasts, drains, frees the
// communicator and returns what was measured (every rank's bytes compared with the
// root's). Below `threshold` ranks it runs TUNED's binomial broadcast instead, as the
// paper's implementation does (result.two_stage.fallback).
BroadcastResult run_two_stage_broadcast(Machine& m, const std::vector<NodeId>& rank_nodes, Rank root,
                                        const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                                        const std::vector<std::uint64_t>& entry, const TwoStageOptions& opt,
                                        std::size_t threshold = kTwoStageMinRanks);

}  // namespace meshsync

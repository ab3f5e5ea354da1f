// A broadcast over ordinary point-to-point messages in the simulated mesh: every rank's
// software, as callbacks on its node (no thread per node, so a 64x64 communicator runs
// fast), receives the message from its parent and forwards it to its children along a
// BroadcastTree (binomial or adaptive). docs/broadcast.md defines what is measured.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../collective/broadcast_tree.hpp"
#include "machine.hpp"

namespace meshsync {

// A body flit carries one 32-bit model word: 4 bytes of the message (docs/broadcast.md;
// the RTL flit's 30-bit payload would hold 3).
inline constexpr std::uint64_t kBytesPerFlit = 4;

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
                                // in its router (= received when it has no children)
  std::uint64_t completion() const { return received > forwarded ? received : forwarded; }
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
  std::uint64_t latency() const;  // the last rank's completion
};

// Call from a driver thread of a running Machine whose network is idle: rank r enters at
// start + entry[r] (all zero: together). Returns once every rank completed and the
// network drained; every rank's bytes are then compared with the root's.
BroadcastResult run_broadcast(Machine& m, const std::vector<NodeId>& rank_nodes, const BroadcastTree& tree,
                              const BroadcastMessage& msg, const std::vector<std::uint8_t>& data,
                              const std::vector<std::uint64_t>& entry);

}  // namespace meshsync

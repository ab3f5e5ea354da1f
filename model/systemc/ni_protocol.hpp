// What software asks of its network interface. Each command is one TLM-2.0 blocking
// transport: the generic payload's address selects the command and its data pointer
// carries the command's struct (docs/architecture.md, "The NI's command set").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../core/router/barrier_register_file.hpp"
#include "../core/flit.hpp"
#include "../core/reduction_message.hpp"

namespace meshsync {

enum class NiCommand : std::uint64_t {
  Send = 0x00,            // NiSend: an ordinary message, start-up t_s charged to the caller
  Multicast = 0x08,       // NiMulticast: one message-passing step of multidestination worms
  Receive = 0x10,         // NiReceive: blocks until a message it matches is delivered
  ProgramBarrier = 0x20,  // NiProgram: write this node's barrier register
  FreeBarrier = 0x28,     // NiGroup: release it
  Barrier = 0x30,         // NiGroup: arrive, block until released
  Reduce = 0x38,          // NiReduce: arrive with a vector, block until released (in-network reduction)
  CsPathSetup = 0x40,     // NiCsPath: program the routers on the path to the parent
  CsPathTeardown = 0x48,  // NiCsPath: release them
  TreeMulticast = 0x50,   // NiTreeMulticast: one data message down a group's barrier tree
  ListenGroup = 0x58,     // NiListen: post (or withdraw) receive buffers for a group's datagrams
};

// LogP's split of a send's start-up (docs/broadcast.md, "The cost of a send"): the
// software is busy `overhead` cycles (o) and the head enters the router `overhead +
// latency` cycles after the call (L), and at least `gap` cycles after the head of the
// NI's previous such send (g). A command without one costs the start-up t_s for both.
struct SendCost {
  std::uint32_t overhead = 0;
  std::uint32_t latency = 0;
  std::uint32_t gap = 0;
};

struct NiSend {
  NodeId dest = 0;
  std::vector<std::uint32_t> words;
  std::optional<SendCost> cost;
};

// One multidestination worm of a step: its destinations in delivery order and the base
// routing between them (model/core/packet.hpp, make_multicast_worm).
struct NiWorm {
  std::vector<NodeId> dests;
  WormBase base = WormBase::XY;
  Port first_hop = Port::Local;  // forced first hop out of this router (MP), Local: none
  std::uint16_t data_flits = 0;  // its data flits; 0: the step's data_flits
};

// One message-passing step of a path-based multicast: a single start-up t_s for all of
// its worms, which carry `data_flits` data flits unless a worm says otherwise (`words`
// ride in the first of them, as many as fit). Worm i leaves on injection channel
// i % ni_ports.
struct NiMulticast {
  std::vector<NiWorm> worms;
  std::uint16_t data_flits = 1;
  std::vector<std::uint32_t> words;
  std::vector<std::uint64_t> packets;  // out: each worm's packet id, in worm order
};

// A tree multicast (docs/tree-multicast.md): one worm of `data_flits` body flits to
// `member`, the root of group `gid`'s barrier tree, whose routers copy it down the tree;
// one start-up. Like a datagram it may reach any member or none: a router drops a copy
// whose output another tree worm holds, and an NI drops it when its software has posted
// no receive for the group (NiListen).
struct NiTreeMulticast {
  std::uint8_t gid = 0;
  NodeId member = 0;
  std::uint16_t data_flits = 0;
  std::vector<std::uint32_t> words;
  std::vector<NodeId> members;  // model only: the nodes the scoreboard lets receive a copy
  std::optional<SendCost> cost;
  std::uint64_t packet = 0;     // out: the worm's packet id
};

// Receive buffers for group `gid`'s tree multicasts: from `open` on, copies delivered to
// this NI go to the inbox; before it (and after closing) they are dropped, as an
// unreliable datagram with no posted receive is (Hoefler et al.'s loss). Takes no time.
struct NiListen {
  std::uint8_t gid = 0;
  bool open = true;
};

// Which delivered messages a receive takes, as MPI matches a receive's source: software
// that shares a node (a multicast's copies, a broadcast's packets from its parent) each
// take their own, and a message no receive matches waits in the NI until one does.
struct NiMatch {
  // Message: point to point only; Multicast: multidestination worm copies only; Tree:
  // tree multicast copies of group `gid` only (Any takes no tree copy).
  enum class Kind : std::uint8_t { Any, Message, Multicast, Tree };
  Kind kind = Kind::Any;
  std::optional<NodeId> from;     // only messages from this node
  std::uint8_t gid = 0;           // Tree: the group
  bool accepts(NodeId src, bool multicast, std::optional<std::uint8_t> tree_gid) const {
    if (from && *from != src) return false;
    if (tree_gid || kind == Kind::Tree) return kind == Kind::Tree && tree_gid && *tree_gid == gid;
    return kind == Kind::Any || (kind == Kind::Multicast) == multicast;
  }
};

struct NiReceive {
  NiMatch match;  // in: which messages this receive takes; the rest is out
  NodeId src = 0;
  std::vector<std::uint32_t> words;  // the data flits' words (a multicast copy's addresses left out)
  std::uint64_t cycle = 0;  // delivery of the tail flit
  std::uint64_t packet = 0;    // the worm's packet id
  bool multicast = false;      // a copy of a multidestination worm
  std::optional<std::uint8_t> tree;  // a tree multicast copy: its group
};

struct NiProgram {
  BarrierRegisterSetup setup;
  bool in_hardware = false;  // out: false when the router had no free register
};

struct NiGroup {
  std::uint8_t gid = 0;
  std::uint64_t release_cycle = 0;  // out (Barrier)
};

// An in-network reduction on group `gid`'s barrier tree (docs/reduction-hardware.md): the
// node arrives with its vector, as a reduction message, and the call returns at its
// release. The reduction's result comes back in `words` to every member of an allreduce
// and to the tree's root of a reduce; `words` is empty at the others.
struct NiReduce {
  std::uint8_t gid = 0;
  ReductionDescriptor desc;
  std::vector<std::uint32_t> words;  // in: desc.words() words; out: the result, or empty
  std::uint64_t result_cycle = 0;    // out: the result's tail reached this NI (0: no result)
  std::uint64_t release_cycle = 0;   // out
};

struct NiCsPath {
  std::uint8_t gid = 0;
  NodeId parent = 0;
};

}  // namespace meshsync

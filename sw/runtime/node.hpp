// The processor side of a node: its software reaches the network only by TLM-2.0
// transport of generic payloads into its network interface, blocking (b_transport) from
// a software thread, or non-blocking (nb_transport_fw, the answer on nb_transport_bw)
// from software written as callbacks, which needs no thread: a 1024x1024 mesh cannot
// give each of its million nodes a thread stack. It is a plain object, not a module
// with an initiator socket of its own, for the same reason.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <systemc>
#include <tlm>

#include "../../model/systemc/mesh_system.hpp"

namespace meshsync {

class Node : private tlm::tlm_bw_transport_if<> {
 public:
  Node(NodeId id, MeshSystem& system);

  NodeId id() const { return id_; }
  Coord coord() const { return system_.mesh().coord(id_); }
  std::uint64_t now() const { return system_.now_cycle(); }
  MeshSystem& system() { return system_; }

  // Blocking: call from an SC_THREAD, which waits until the NI has finished.
  // Point to point: `words` ride in the bodies of a (1 + words) flit worm.
  void send(NodeId dest, std::vector<std::uint32_t> words = {});
  // The next delivered message that `match` takes (default: any).
  NiReceive receive(NiMatch match = {});

  // Barrier register access; false when the router had no free register and the NI
  // keeps the register in node memory instead.
  bool program_barrier(const BarrierRegisterSetup& setup);
  void free_barrier(std::uint8_t gid);
  // Arrive at the barrier of `gid`; returns the cycle of this node's release.
  std::uint64_t barrier(std::uint8_t gid);
  void cs_path(std::uint8_t gid, NodeId parent, bool setup);
  // An in-network reduction on group gid's barrier tree (docs/reduction-hardware.md):
  // arrives with `words` and returns at this node's release, with the result where one
  // comes here (every member of an allreduce, the tree's root of a reduce).
  NiReduce reduce_in_network(std::uint8_t gid, const ReductionDescriptor& desc, std::vector<std::uint32_t> words);

  // Non-blocking: the same commands, started in the current cycle; `done` runs when the
  // blocking call would have returned, with what it would have returned.
  void program_barrier(const BarrierRegisterSetup& setup, std::function<void(bool)> done);
  void free_barrier(std::uint8_t gid, std::function<void()> done);
  void barrier(std::uint8_t gid, std::function<void(std::uint64_t)> done);
  void cs_path(std::uint8_t gid, NodeId parent, bool setup, std::function<void()> done);
  void reduce_in_network(std::uint8_t gid, const ReductionDescriptor& desc, std::vector<std::uint32_t> words,
                         std::function<void(NiReduce&)> done);
  // Software as callbacks, for every node of a large mesh. `done` of send runs when the
  // start-up is over (the head is in the router); receive's gets the whole message once
  // its tail is delivered.
  void send(NodeId dest, std::vector<std::uint32_t> words, std::function<void()> done,
            std::optional<SendCost> cost = std::nullopt);
  void receive(std::function<void(NiReceive&)> done, NiMatch match = {});
  // One message-passing step of a path-based multicast (one start-up for all its worms);
  // `done` gets the command with the worms' packet ids once the start-up has passed.
  void multicast(NiMulticast step, std::function<void(NiMulticast&)> done);
  // A tree multicast down group gid's barrier tree (docs/tree-multicast.md); `done` once
  // the start-up has passed. listen() posts (open) or withdraws receive buffers for the
  // group's copies: without them the NI drops a copy.
  void tree_multicast(NiTreeMulticast cmd, std::function<void(NiTreeMulticast&)> done);
  void listen(std::uint8_t gid, bool open, std::function<void()> done);

 private:
  void transport(NiCommand cmd, void* data);
  template <typename Cmd, typename Done>
  void start(NiCommand cmd, Cmd data, Done done);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  tlm::tlm_fw_transport_if<>* ni_;  // the NI's target interface
  NodeId id_;
  MeshSystem& system_;
};

}  // namespace meshsync

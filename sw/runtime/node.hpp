// The processor side of a node: its software reaches the network only by blocking
// transport of generic payloads into the TLM-2.0 target socket of the node's network
// interface. It is a plain object, not a module with an initiator socket of its own: a
// 64x64 mesh would otherwise elaborate 4096 more modules and sockets, which costs more
// host time than simulating a barrier on it.
#pragma once

#include <cstdint>
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

  // Point to point: `words` ride in the bodies of a (1 + words) flit worm.
  void send(NodeId dest, std::vector<std::uint32_t> words = {});
  NiReceive receive();

  // Barrier register access; false when the router had no free register and the NI
  // keeps the register in node memory instead.
  bool program_barrier(const BarrierRegisterSetup& setup);
  void free_barrier(std::uint8_t gid);
  // Arrive at the barrier of `gid`; returns the cycle of this node's release.
  std::uint64_t barrier(std::uint8_t gid);
  void cs_path(std::uint8_t gid, NodeId parent, bool setup);

 private:
  void transport(NiCommand cmd, void* data);
  // We bind the socket's backward path; blocking transport never uses it.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_core::sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  tlm::tlm_fw_transport_if<>* ni_;  // what the NI's target socket exports
  NodeId id_;
  MeshSystem& system_;
};

}  // namespace meshsync

// The processor side of a node: its software reaches the network only through this
// TLM-2.0 initiator socket, bound to the node's network interface.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "../../model/systemc/mesh_system.hpp"

namespace meshsync {

class Node : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Node> socket;

  Node(sc_core::sc_module_name name, NodeId id, MeshSystem& system);

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

  NodeId id_;
  MeshSystem& system_;
};

}  // namespace meshsync

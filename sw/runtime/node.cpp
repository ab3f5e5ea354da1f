#include "node.hpp"

#include <stdexcept>

namespace meshsync {

Node::Node(NodeId id, MeshSystem& system)
    : ni_(static_cast<sc_core::sc_export<tlm::tlm_fw_transport_if<>>&>(system.ni(id).socket)
              .operator->()),
      id_(id),
      system_(system) {
  system.ni(id).socket.get_base_port().bind(*this);
}

void Node::transport(NiCommand cmd, void* data) {
  tlm::tlm_generic_payload trans;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(static_cast<std::uint64_t>(cmd));
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(0);
  trans.set_streaming_width(0);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  ni_->b_transport(trans, delay);
  if (trans.is_response_error())
    throw std::runtime_error("network interface rejected command " +
                             std::to_string(static_cast<std::uint64_t>(cmd)));
}

void Node::send(NodeId dest, std::vector<std::uint32_t> words) {
  NiSend cmd{dest, std::move(words)};
  transport(NiCommand::Send, &cmd);
}

NiReceive Node::receive() {
  NiReceive cmd;
  transport(NiCommand::Receive, &cmd);
  return cmd;
}

bool Node::program_barrier(const BarrierRegisterSetup& setup) {
  NiProgram cmd{setup, false};
  transport(NiCommand::ProgramBarrier, &cmd);
  return cmd.in_hardware;
}

void Node::free_barrier(std::uint8_t gid) {
  NiGroup cmd{gid, 0};
  transport(NiCommand::FreeBarrier, &cmd);
}

std::uint64_t Node::barrier(std::uint8_t gid) {
  NiGroup cmd{gid, 0};
  transport(NiCommand::Barrier, &cmd);
  return cmd.release_cycle;
}

void Node::cs_path(std::uint8_t gid, NodeId parent, bool setup) {
  NiCsPath cmd{gid, parent};
  transport(setup ? NiCommand::CsPathSetup : NiCommand::CsPathTeardown, &cmd);
}

}  // namespace meshsync

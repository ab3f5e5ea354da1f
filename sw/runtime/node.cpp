#include "node.hpp"

#include <memory>
#include <stdexcept>

namespace meshsync {

namespace {

void prepare(tlm::tlm_generic_payload& trans, NiCommand cmd, void* data) {
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(static_cast<std::uint64_t>(cmd));
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(0);
  trans.set_streaming_width(0);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

void check(const tlm::tlm_generic_payload& trans) {
  if (trans.is_response_error())
    throw std::runtime_error("network interface rejected command " +
                             std::to_string(trans.get_address()));
}

// A non-blocking transaction: the payload, the command it carries, and what to do with
// the result. Lives from the request until the response.
struct Call : tlm::tlm_generic_payload {
  std::function<void()> finish;
};
template <typename Cmd>
struct CallWith : Call {
  Cmd cmd;
};

void complete(tlm::tlm_generic_payload& trans) {
  std::unique_ptr<Call> call(static_cast<Call*>(&trans));
  check(*call);
  call->finish();
}

}  // namespace

Node::Node(NodeId id, MeshSystem& system)
    : ni_(&system.ni(id).bind(*this)), id_(id), system_(system) {}

void Node::transport(NiCommand cmd, void* data) {
  tlm::tlm_generic_payload trans;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  prepare(trans, cmd, data);
  ni_->b_transport(trans, delay);
  check(trans);
}

template <typename Cmd, typename Done>
void Node::start(NiCommand cmd, Cmd data, Done done) {
  auto* call = new CallWith<Cmd>;
  call->cmd = std::move(data);
  prepare(*call, cmd, &call->cmd);
  call->finish = [call, done = std::move(done)] { done(call->cmd); };
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (ni_->nb_transport_fw(*call, phase, delay) == tlm::TLM_COMPLETED) complete(*call);
}

tlm::tlm_sync_enum Node::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase&,
                                         sc_core::sc_time&) {
  complete(trans);  // BEGIN_RESP: the command has finished
  return tlm::TLM_COMPLETED;
}

void Node::send(NodeId dest, std::vector<std::uint32_t> words) {
  NiSend cmd{dest, std::move(words), std::nullopt};
  transport(NiCommand::Send, &cmd);
}

NiReceive Node::receive(NiMatch match) {
  NiReceive cmd;
  cmd.match = match;
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

NiReduce Node::reduce_in_network(std::uint8_t gid, const ReductionDescriptor& desc, std::vector<std::uint32_t> words) {
  NiReduce cmd{gid, desc, std::move(words), 0, 0};
  transport(NiCommand::Reduce, &cmd);
  return cmd;
}

void Node::reduce_in_network(std::uint8_t gid, const ReductionDescriptor& desc, std::vector<std::uint32_t> words,
                             std::function<void(NiReduce&)> done) {
  start(NiCommand::Reduce, NiReduce{gid, desc, std::move(words), 0, 0}, std::move(done));
}

void Node::cs_path(std::uint8_t gid, NodeId parent, bool setup) {
  NiCsPath cmd{gid, parent};
  transport(setup ? NiCommand::CsPathSetup : NiCommand::CsPathTeardown, &cmd);
}

void Node::program_barrier(const BarrierRegisterSetup& setup, std::function<void(bool)> done) {
  start(NiCommand::ProgramBarrier, NiProgram{setup, false},
        [done = std::move(done)](NiProgram& c) { done(c.in_hardware); });
}

void Node::free_barrier(std::uint8_t gid, std::function<void()> done) {
  start(NiCommand::FreeBarrier, NiGroup{gid, 0}, [done = std::move(done)](NiGroup&) { done(); });
}

void Node::barrier(std::uint8_t gid, std::function<void(std::uint64_t)> done) {
  start(NiCommand::Barrier, NiGroup{gid, 0},
        [done = std::move(done)](NiGroup& c) { done(c.release_cycle); });
}

void Node::cs_path(std::uint8_t gid, NodeId parent, bool setup, std::function<void()> done) {
  start(setup ? NiCommand::CsPathSetup : NiCommand::CsPathTeardown, NiCsPath{gid, parent},
        [done = std::move(done)](NiCsPath&) { done(); });
}

void Node::send(NodeId dest, std::vector<std::uint32_t> words, std::function<void()> done,
                std::optional<SendCost> cost) {
  start(NiCommand::Send, NiSend{dest, std::move(words), cost}, [done = std::move(done)](NiSend&) { done(); });
}

void Node::multicast(NiMulticast step, std::function<void(NiMulticast&)> done) {
  start(NiCommand::Multicast, std::move(step), std::move(done));
}

void Node::tree_multicast(NiTreeMulticast cmd, std::function<void(NiTreeMulticast&)> done) {
  start(NiCommand::TreeMulticast, std::move(cmd), std::move(done));
}

void Node::listen(std::uint8_t gid, bool open, std::function<void()> done) {
  start(NiCommand::ListenGroup, NiListen{gid, open}, [done = std::move(done)](NiListen&) { done(); });
}

void Node::receive(std::function<void(NiReceive&)> done, NiMatch match) {
  NiReceive cmd;
  cmd.match = match;
  start(NiCommand::Receive, std::move(cmd), std::move(done));
}

}  // namespace meshsync

#include "network_interface.hpp"

#include <stdexcept>

#include "../core/packet.hpp"
#include "mesh_system.hpp"

namespace meshsync {

using sc_core::sc_time;

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, NodeId node, MeshSystem& system)
    : sc_core::sc_module(name), socket("socket"), node_(node), system_(system) {
  socket.bind(*this);
}

tlm::tlm_sync_enum NetworkInterface::nb_transport_fw(tlm::tlm_generic_payload& trans,
                                                     tlm::tlm_phase&, sc_core::sc_time&) {
  trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  return tlm::TLM_COMPLETED;
}

void NetworkInterface::inject(const Flit& f, std::uint64_t cycle) { system_.inject(node_, f, cycle); }

void NetworkInterface::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  // Loosely timed callers may hand us local time; we synchronise first so that every
  // start-up is counted from the simulated time of the call.
  if (delay != sc_core::SC_ZERO_TIME) {
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  unsigned char* data = trans.get_data_ptr();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  switch (static_cast<NiCommand>(trans.get_address())) {
    case NiCommand::Send: do_send(*reinterpret_cast<NiSend*>(data)); break;
    case NiCommand::Receive: do_receive(*reinterpret_cast<NiReceive*>(data)); break;
    case NiCommand::ProgramBarrier: do_program(*reinterpret_cast<NiProgram*>(data)); break;
    case NiCommand::FreeBarrier: do_free(*reinterpret_cast<NiGroup*>(data)); break;
    case NiCommand::Barrier: do_barrier(*reinterpret_cast<NiGroup*>(data)); break;
    case NiCommand::CsPathSetup:
      do_cs_path(*reinterpret_cast<NiCsPath*>(data), SyncType::Setup);
      break;
    case NiCommand::CsPathTeardown:
      do_cs_path(*reinterpret_cast<NiCsPath*>(data), SyncType::Teardown);
      break;
    default: trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); break;
  }
}

void NetworkInterface::do_send(NiSend& cmd) {
  const std::uint64_t now = system_.now_cycle();
  const std::uint64_t start = now + system_.config().timing.ts;
  const auto length = static_cast<std::uint16_t>(1 + cmd.words.size());
  const std::uint64_t id = system_.core().new_packet_id();
  system_.scoreboard().expect(id, node_, cmd.dest, length, now);
  for (const Flit& f : make_worm(id, node_, cmd.dest, length, now, cmd.words)) inject(f, start);
  // The caller is busy for the start-up; the head enters the router as it returns.
  sc_core::wait(MeshSystem::until(start));
}

template <typename Queue, typename CycleOf>
void NetworkInterface::wait_until_due(const Queue& due, sc_core::sc_event& announced,
                                      CycleOf cycle_of) {
  for (;;) {
    const std::uint64_t now = system_.now_cycle();
    if (due.empty()) {
      sc_core::wait(announced);
    } else if (cycle_of(due.front()) > now) {
      sc_core::wait(MeshSystem::until(cycle_of(due.front())));
    } else {
      return;
    }
  }
}

void NetworkInterface::do_receive(NiReceive& cmd) {
  receiving_ = true;
  wait_until_due(inbox_, inbox_event_, [](const NiReceive& r) { return r.cycle; });
  receiving_ = false;
  cmd = std::move(inbox_.front());
  inbox_.pop_front();
}

void NetworkInterface::do_program(NiProgram& cmd) {
  const std::uint8_t gid = cmd.setup.gid;
  cmd.in_hardware = system_.program_register(node_, cmd.setup);
  if (cmd.in_hardware) {
    if (!cmd.setup.parent) hardware_roots_.insert(gid);
  } else {
    soft_[gid].program(cmd.setup);
  }
  waits_[gid];
}

void NetworkInterface::do_free(NiGroup& cmd) {
  system_.free_register(node_, cmd.gid);
  soft_.erase(cmd.gid);
  hardware_roots_.erase(cmd.gid);
  waits_.erase(cmd.gid);
}

void NetworkInterface::do_cs_path(const NiCsPath& cmd, SyncType type) {
  // A message like any other: the caller pays the start-up.
  const std::uint64_t ts = system_.config().timing.ts;
  const std::uint64_t start = system_.now_cycle() + ts;
  inject(make_sync(type, cmd.gid, node_, cmd.parent, Route::XY, kNoSlot), start);
  sc_core::wait(MeshSystem::until(start));
}

void NetworkInterface::do_barrier(NiGroup& cmd) {
  auto found = waits_.find(cmd.gid);
  if (found == waits_.end())
    throw std::logic_error("barrier on gid " + std::to_string(cmd.gid) +
                           " at a node that has not joined it");
  GroupWait& w = found->second;
  const std::uint64_t now = system_.now_cycle();
  auto soft = soft_.find(cmd.gid);
  if (soft != soft_.end()) {
    soft_arrive(soft->second, kLocalSlot, now);
  } else {
    inject(make_sync(SyncType::Arrive, cmd.gid, node_, node_, Route::XY, kLocalSlot),
           now + system_.config().timing.ts);
  }
  barrier_waiting_ = cmd.gid;
  wait_until_due(w.releases, w.released, [](std::uint64_t c) { return c; });
  barrier_waiting_ = -1;
  cmd.release_cycle = w.releases.front();
  w.releases.pop_front();
}

void NetworkInterface::release_local(std::uint8_t gid, std::uint64_t cycle) {
  auto it = waits_.find(gid);
  if (it == waits_.end()) return;  // the group was freed: nobody is waiting
  GroupWait& w = it->second;
  w.releases.push_back(cycle);
  w.released.notify(sc_core::SC_ZERO_TIME);
}

// The software fallback is never faster than the barrier unit it stands in for: each
// register operation in node memory takes trm, as the unit does, and every message the
// NI's software sends pays a start-up ts (docs/barrier-fallback.md).
void NetworkInterface::soft_arrive(BarrierRegister& reg, std::uint8_t slot, std::uint64_t cycle) {
  if (auto m = reg.on_arrive(slot, node_)) soft_emit(*m, cycle + system_.config().timing.trm);
}

void NetworkInterface::soft_emit(const Flit& m, std::uint64_t cycle) {
  const std::uint64_t ts = system_.config().timing.ts;
  if (m.dest == node_) {
    // Reduction complete at a root kept in software: one start-up, then distribution.
    soft_release(m.gid, cycle + ts, cycle + ts);
  } else {
    inject(m, cycle + ts);
  }
}

void NetworkInterface::soft_release(std::uint8_t gid, std::uint64_t local_at,
                                    std::uint64_t children_at) {
  auto soft = soft_.find(gid);
  if (soft == soft_.end()) return;
  for (const Flit& m : soft->second.on_release(node_)) {
    if (m.dest == node_) release_local(gid, local_at);
    else inject(m, children_at);  // one start-up; the channel sends them back to back
  }
}

void NetworkInterface::on_eject(const Flit& f, std::uint64_t cycle) {
  if (!f.sync) {
    Assembly& a = assembling_[f.packet];
    a.src = f.src;
    if (!f.head) a.words.push_back(f.payload);
    if (f.tail) {
      inbox_.push_back(NiReceive{a.src, std::move(a.words), cycle});
      assembling_.erase(f.packet);
      inbox_event_.notify(MeshSystem::until(cycle));
    }
    return;
  }
  if (f.dest != node_) return;  // cannot happen: routers eject only at the destination
  auto soft = soft_.find(f.gid);
  if (f.stype == SyncType::Arrive) {
    if (soft != soft_.end()) {
      soft_arrive(soft->second, f.data, cycle);
    } else if (hardware_roots_.count(f.gid)) {
      // The root register finished the reduction: the root's start-up for distribution.
      inject(make_sync(SyncType::Release, f.gid, node_, node_, Route::XY, 0),
             cycle + system_.config().timing.ts);
    }
  } else if (f.stype == SyncType::Release) {
    if (soft != soft_.end()) {
      // Processing (trm), then our own release; the children's also need a start-up.
      const Timing& t = system_.config().timing;
      soft_release(f.gid, cycle + t.trm, cycle + t.trm + t.ts);
    } else {
      release_local(f.gid, cycle);
    }
  }
}

std::string NetworkInterface::waiting_for() const {
  const Coord c = system_.mesh().coord(node_);
  const std::string where = "node (" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
  if (barrier_waiting_ >= 0)
    return where + " waiting for the release of gid " + std::to_string(barrier_waiting_);
  if (receiving_) return where + " waiting in receive";
  return {};
}

}  // namespace meshsync

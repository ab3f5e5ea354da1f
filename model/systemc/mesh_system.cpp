#include "mesh_system.hpp"

#include <algorithm>

namespace meshsync {

using sc_core::sc_time;

MeshSystem::MeshSystem(sc_core::sc_module_name name, const NetworkConfig& cfg)
    : sc_core::sc_module(name), core_(cfg) {
  core_.set_sink(this);
  const MeshShape& m = core_.mesh();
  nis_.reserve(static_cast<std::size_t>(m.nodes()));
  for (int n = 0; n < m.nodes(); ++n) {
    const Coord c = m.coord(static_cast<NodeId>(n));
    const std::string nm = "ni_" + std::to_string(c.x) + "_" + std::to_string(c.y);
    nis_.push_back(std::make_unique<NetworkInterface>(nm.c_str(), static_cast<NodeId>(n), *this));
  }
  SC_HAS_PROCESS(MeshSystem);
  SC_THREAD(clock_thread);
}

MeshSystem::~MeshSystem() = default;

std::uint64_t MeshSystem::now_cycle() const {
  return static_cast<std::uint64_t>(sc_core::sc_time_stamp() / cycle_time());
}

sc_time MeshSystem::until(std::uint64_t cycle) {
  return cycle_time() * static_cast<double>(cycle) - sc_core::sc_time_stamp();
}

void MeshSystem::await_cycle_end() {
  const std::uint64_t now = now_cycle();
  while (!core_.ran(now) && core_.next_event_cycle() <= now) sc_core::wait(cycle_done_);
}

template <typename Write>
bool MeshSystem::register_write(NodeId node, Write write) {
  if (register_ports_.empty()) register_ports_.resize(static_cast<std::size_t>(mesh().nodes()));
  auto& port = register_ports_[node];
  if (!port) port = std::make_unique<RegisterPort>();
  while (port->busy) sc_core::wait(port->free);
  port->busy = true;
  await_cycle_end();
  const std::uint64_t now = now_cycle();
  write(now);
  touch(node);
  wake_.notify(sc_core::SC_ZERO_TIME);
  sc_core::wait(until(now + 1));
  const bool ok = core_.register_ok(node);
  port->busy = false;
  port->free.notify(sc_core::SC_ZERO_TIME);
  return ok;
}

bool MeshSystem::program_register(NodeId node, const BarrierRegisterSetup& s) {
  return register_write(node, [&](std::uint64_t c) { core_.program_register(node, s, c); });
}

bool MeshSystem::free_register(NodeId node, std::uint8_t gid) {
  return register_write(node, [&](std::uint64_t c) { core_.free_register(node, gid, c); });
}

void MeshSystem::inject(NodeId node, const Flit& f, std::uint64_t cycle) {
  core_.inject(node, f, cycle);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void MeshSystem::touch(NodeId node) {
  if (!core_.probed()) return;
  core_.touch(node, now_cycle());
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void MeshSystem::attach_traffic(TrafficGenerator* gen) {
  traffic_ = gen;
  core_.set_traffic(gen);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void MeshSystem::wait_idle() {
  while (core_.next_event_cycle() != kNever) sc_core::wait(idle_);
}

void MeshSystem::wait_cycle(std::uint64_t cycle) {
  if (cycle > now_cycle()) sc_core::wait(until(cycle));
}

void MeshSystem::wait_sync_drained() {
  while (core_.holds_sync()) sc_core::wait(until(now_cycle() + 1));
}

void MeshSystem::clock_thread() {
  try {
    for (;;) {
      // Cycle boundaries only: software acts there too, and idleness is announced there.
      if (sc_core::sc_time_stamp() != cycle_time() * static_cast<double>(now_cycle())) {
        sc_core::wait(until(now_cycle() + 1));
        continue;
      }
      const std::uint64_t now = now_cycle();
      const std::uint64_t next = core_.next_event_cycle();
      if (next == kNever) {
        idle_.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(wake_);
        continue;
      }
      if (next > now) {
        sc_core::wait(until(next), wake_);
        continue;
      }
      if (!core_.ran(now)) {
        core_.run_cycle(now);
        cycle_done_.notify();  // software waiting to act at the end of this cycle
      }
      if (core_.has_external()) {
        // RTL routers evaluate the cycle half a period later, once every software action
        // of the cycle (register writes, injections) is in.
        sc_core::wait(cycle_time() / 2);
        core_.run_external(now);
        sc_core::wait(until(now + 1));
      } else {
        // Whatever the network did, the next cycle starts one period later.
        sc_core::wait(cycle_time());
      }
    }
  } catch (const std::exception& e) {
    error_ = e.what();
    sc_core::sc_stop();
  }
}

void MeshSystem::on_eject(NodeId node, const Flit& f, std::uint64_t cycle) {
  if (!f.sync) {
    if (traffic_ && traffic_->owns(f)) {
      traffic_->on_eject(node, f, cycle);
      return;
    }
    board_.deliver(node, f);
  }
  nis_[node]->on_eject(f, cycle);
}

std::vector<std::string> MeshSystem::blocked_processes() const {
  std::vector<std::string> out;
  for (const auto& ni : nis_) {
    const std::string w = ni->waiting_for();
    if (!w.empty()) out.push_back(w);
  }
  return out;
}

}  // namespace meshsync

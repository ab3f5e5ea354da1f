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

void MeshSystem::clock_thread() {
  try {
    for (;;) {
      const std::uint64_t now = now_cycle();
      const std::uint64_t next = core_.next_event_cycle();
      if (next == kNever) {
        idle_.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(wake_);
        continue;
      }
      if (next > now) {
        sc_core::wait(cycle_time() * static_cast<double>(next - now), wake_);
        continue;
      }
      core_.run_cycle(now);
      // Whatever the network did, the next cycle starts one period later.
      sc_core::wait(cycle_time());
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

#include "mesh_system.hpp"

#include <algorithm>
#include <new>

namespace meshsync {

using sc_core::sc_time;

MeshSystem::MeshSystem(sc_core::sc_module_name name, const ValidConfig& cfg)
    : sc_core::sc_module(name), core_(cfg) {
  core_.set_sink(this);
  board_.set_mesh(core_.mesh());
  nis_.resize(static_cast<std::size_t>(core_.mesh().nodes()));
  SC_HAS_PROCESS(MeshSystem);
  SC_THREAD(clock_thread);
  SC_METHOD(software_method);
  sensitive << timed_due_;
  dont_initialize();
}

NetworkInterface& MeshSystem::ni(NodeId n) {
  auto& ni = nis_[n];
  if (!ni) {
    ni = std::make_unique<NetworkInterface>(n, *this);
    ++nis_allocated_;
  }
  return *ni;
}

MeshSystem::~MeshSystem() = default;

std::uint64_t MeshSystem::now_cycle() const {
  return static_cast<std::uint64_t>(sc_core::sc_time_stamp() / cycle_time());
}

sc_time MeshSystem::until(std::uint64_t cycle) {
  return cycle_time() * static_cast<double>(cycle) - sc_core::sc_time_stamp();
}

void MeshSystem::at(std::uint64_t cycle, std::function<void()> fn) {
  const std::uint64_t now = now_cycle();
  if (cycle < now) cycle = now;
  timed_.push_back(Timed{cycle, timed_seq_++, std::move(fn)});
  std::push_heap(timed_.begin(), timed_.end(), Later{});
  // A pending notification later than this one is replaced; an earlier one stays.
  if (cycle == now) timed_due_.notify(sc_core::SC_ZERO_TIME);
  else timed_due_.notify(until(cycle));
}

void MeshSystem::start_of_simulation() {
  if (!timed_.empty()) timed_due_.notify(until(timed_.front().cycle));
}

void MeshSystem::software_method() {
  const std::uint64_t now = now_cycle();
  // Callbacks may add more for this cycle; they run in this pass too.
  try {
    while (!timed_.empty() && timed_.front().cycle <= now) {
      std::pop_heap(timed_.begin(), timed_.end(), Later{});
      std::function<void()> fn = std::move(timed_.back().fn);
      timed_.pop_back();
      fn();
    }
  } catch (const ConfigError& e) {
    refusal_ = e.what();
    sc_core::sc_stop();
    return;
  } catch (const std::bad_alloc&) {
    // Out of memory is no simulation result: SystemC wraps it, and run_program reports it
    // (is_bad_alloc). The wrapping allocates: the reserve makes room for it.
    oom_reserve_.reset();
    throw;
  } catch (const std::exception& e) {
    error_ = e.what();
    sc_core::sc_stop();
    return;
  }
  if (!timed_.empty()) timed_due_.notify(until(timed_.front().cycle));
}

void MeshSystem::at_cycle_end(std::function<void()> fn) {
  const std::uint64_t now = now_cycle();
  if (core_.ran(now) || core_.next_event_cycle() > now) fn();
  else cycle_end_.push_back(std::move(fn));  // the clock thread runs it after the routers
}

void MeshSystem::run_at_cycle_end() {
  // Each callback acts on its own node's register port; their order does not matter.
  std::vector<std::function<void()>> due;
  due.swap(cycle_end_);
  for (auto& fn : due) fn();
}

void MeshSystem::register_write(NodeId node, std::function<void(std::uint64_t)> write,
                                std::function<void(bool)> done) {
  if (register_ports_.empty()) register_ports_.resize(static_cast<std::size_t>(mesh().nodes()));
  auto& slot = register_ports_[node];
  if (!slot) slot = std::make_unique<RegisterPort>();
  RegisterPort* port = slot.get();
  auto begin = [this, node, port, write = std::move(write), done = std::move(done)]() mutable {
    port->busy = true;
    at_cycle_end([this, node, port, write = std::move(write), done = std::move(done)]() mutable {
      const std::uint64_t now = now_cycle();
      write(now);
      touch(node);
      wake_.notify(sc_core::SC_ZERO_TIME);
      at(now + 1, [this, node, port, done = std::move(done)] {
        const bool ok = core_.register_ok(node);
        port->busy = false;
        if (!port->waiting.empty()) {
          at(now_cycle(), std::move(port->waiting.front()));
          port->waiting.erase(port->waiting.begin());
        }
        done(ok);
      });
    });
  };
  if (port->busy) port->waiting.push_back(std::move(begin));
  else begin();
}

void MeshSystem::program_register(NodeId node, const BarrierRegisterSetup& s,
                                  std::function<void(bool)> done) {
  // A copy: the write acts in a later cycle, when the caller's setup may be gone.
  register_write(node, [this, node, s](std::uint64_t c) { core_.program_register(node, s, c); },
                 std::move(done));
}

void MeshSystem::free_register(NodeId node, std::uint8_t gid, std::function<void(bool)> done) {
  register_write(node, [this, node, gid](std::uint64_t c) { core_.free_register(node, gid, c); },
                 std::move(done));
}

void MeshSystem::inject(NodeId node, const Flit& f, std::uint64_t cycle, int channel) {
  core_.inject(node, f, cycle, channel);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void MeshSystem::touch(NodeId node) {
  if (!core_.probed()) return;
  // The write acts at the end of this cycle: the router's state after it is the state
  // from the next cycle on, whatever else software does in this one.
  core_.touch(node, now_cycle() + 1);
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
        run_at_cycle_end();  // software waiting to act at the end of this cycle
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
  } catch (const std::bad_alloc&) {
    oom_reserve_.reset();  // as in the timed callbacks above
    throw;
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
    board_.deliver(node, f, cycle);
  }
  ni(node).on_eject(f, cycle);
}

std::vector<std::string> MeshSystem::blocked_processes() const {
  std::vector<std::string> out;
  for (const auto& ni : nis_) {
    if (!ni) continue;
    const std::string w = ni->waiting_for();
    if (!w.empty()) out.push_back(w);
  }
  return out;
}

}  // namespace meshsync

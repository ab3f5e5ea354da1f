#include "machine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

// The programs and tests that use Machine have their own main(); libsystemc still wants
// an sc_main to link against.
int sc_main(int, char*[]) { return 0; }

namespace meshsync {

namespace {
void fresh_systemc_context() {
  // JSON on stdout must not start with the SystemC banner.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // SystemC elaborates once per context; a new context lets one process simulate many
  // machines in turn. The old context is left alive: objects of earlier machines still
  // point at it while they are destroyed.
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}
}  // namespace

Machine::Machine(const NetworkConfig& cfg) {
  cfg.validate();
  fresh_systemc_context();
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  mesh_ = std::make_unique<MeshSystem>("mesh", cfg);
  const MeshShape& shape = mesh_->mesh();
  nodes_.reserve(static_cast<std::size_t>(shape.nodes()));
  for (int n = 0; n < shape.nodes(); ++n) {
    const Coord c = shape.coord(static_cast<NodeId>(n));
    const std::string nm = "cpu_" + std::to_string(c.x) + "_" + std::to_string(c.y);
    nodes_.push_back(std::make_unique<Node>(nm.c_str(), static_cast<NodeId>(n), *mesh_));
  }
}

Machine::~Machine() = default;

void Machine::spawn(const std::string& name, std::function<void()> body) {
  sc_core::sc_spawn_options opts;
  opts.set_stack_size(128 * 1024);
  ++running_;
  sc_core::sc_spawn(
      [this, body = std::move(body)] {
        body();
        --running_;
      },
      name.c_str(), &opts);
}

void Machine::run() {
  sc_core::sc_start();
  if (!mesh_->error().empty()) throw SimulationError(mesh_->error());
  auto blocked = mesh_->blocked_processes();
  if (!blocked.empty() || running_ > 0) {
    std::string msg = "simulation ended at cycle " + std::to_string(now()) + " with " +
                      std::to_string(std::max(blocked.size(), running_)) +
                      " process(es) that cannot finish";
    for (std::size_t i = 0; i < blocked.size() && i < 8; ++i) msg += "\n  " + blocked[i];
    throw SimulationError(msg);
  }
}

BarrierMeasurement measure_barrier(Machine& m, const Communicator& c) {
  const std::size_t n = c.members().size();
  BarrierMeasurement out;
  std::size_t joined = 0, released = 0;
  std::uint64_t last_release = 0, first_release = ~0ull;
  sc_core::sc_event all_joined, start, all_released;

  for (const TreeNode& t : c.members()) {
    Node& node = m.node(t.node);
    m.spawn("member_" + std::to_string(c.gid) + "_" + std::to_string(t.node), [&, &node = node] {
      if (!join(node, c)) ++out.software_fallbacks;
      if (++joined == n) all_joined.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait(start);
      const std::uint64_t r = barrier(node, c);
      last_release = std::max(last_release, r);
      first_release = std::min(first_release, r);
      if (++released == n) all_released.notify(sc_core::SC_ZERO_TIME);
    });
  }
  if (joined < n) sc_core::wait(all_joined);
  m.mesh().wait_idle();
  // Every member arrives in the next cycle.
  out.arrival_cycle = m.now() + 1;
  const std::uint64_t hops_before = m.mesh().core().counters().sync_hops;
  const auto wall0 = std::chrono::steady_clock::now();
  start.notify(MeshSystem::cycle_time());
  sc_core::wait(all_released);
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  m.mesh().wait_idle();
  out.latency_cycles = last_release - out.arrival_cycle;
  out.first_release = first_release - out.arrival_cycle;
  out.hops = m.mesh().core().counters().sync_hops - hops_before;
  // Leave, so the registers are free for the next group.
  std::size_t left = 0;
  sc_core::sc_event all_left;
  for (const TreeNode& t : c.members()) {
    Node& node = m.node(t.node);
    m.spawn("leave_" + std::to_string(c.gid) + "_" + std::to_string(t.node), [&, &node = node] {
      leave(node, c);
      if (++left == n) all_left.notify(sc_core::SC_ZERO_TIME);
    });
  }
  if (left < n) sc_core::wait(all_left);
  m.mesh().wait_idle();
  return out;
}

}  // namespace meshsync

#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn, for software threads

#include "machine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace meshsync {

namespace {
// Software threads are shallow (they call the NI and wait); a small stack keeps 4096 of
// them cheap. Sanitizers need more room.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kThreadStack = 512 * 1024;
#else
constexpr std::size_t kThreadStack = 64 * 1024;
#endif

// Programs that use Machine enter through sc_main, and libsystemc's main() prints its
// banner to stderr before calling it: the switch has to be set while statics are
// initialized, before any main() runs. Error output stays one line, JSON output clean.
[[maybe_unused]] const bool kNoBanner = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

void fresh_systemc_context() {
  // SystemC elaborates once per context; a new context lets one process simulate many
  // machines in turn. The old context is left alive: objects of earlier machines still
  // point at it while they are destroyed.
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}
}  // namespace

Machine::Machine(const ValidConfig& cfg) {
  fresh_systemc_context();
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  mesh_ = std::make_unique<MeshSystem>("mesh", cfg);
  const MeshShape& shape = mesh_->mesh();
  nodes_.resize(static_cast<std::size_t>(shape.nodes()));
  software_.resize(static_cast<std::size_t>(shape.nodes()));
}

Node& Machine::node(NodeId n) {
  auto& node = nodes_[n];
  if (!node) node = std::make_unique<Node>(n, *mesh_);
  return *node;
}

Machine::~Machine() = default;

void Machine::spawn(const std::string& name, std::function<void()> body) {
  sc_core::sc_spawn_options opts;
  opts.set_stack_size(kThreadStack);
  ++running_;
  sc_core::sc_spawn(
      [this, body = std::move(body)] {
        body();
        --running_;
      },
      name.empty() ? nullptr : name.c_str(), &opts);
}

void Machine::post(NodeId n, std::function<void()> job) {
  auto& sw = software_[n];
  if (!sw) sw = std::make_unique<Software>();
  ++running_;
  sw->jobs.push_back(std::move(job));
  if (sw->started) {
    sw->ready.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  sw->started = true;
  sc_core::sc_spawn_options opts;
  opts.set_stack_size(kThreadStack);
  Software* s = sw.get();
  sc_core::sc_spawn(
      [this, s] {
        for (;;) {
          while (s->jobs.empty()) sc_core::wait(s->ready);
          auto job = std::move(s->jobs.front());
          s->jobs.pop_front();
          job();
          --running_;
        }
      },
      nullptr, &opts);
}

void Machine::on_progress(ProgressCallback callback, std::uint64_t slice) {
  progress_ = std::move(callback);
  progress_slice_ = std::max<std::uint64_t>(slice, 1);
}

void Machine::run() {
  if (!progress_) {
    sc_core::sc_start();
  } else {
    // Each slice reaches at least the next event (an idle stretch may be longer than a
    // slice) and ends at the last event in it, so the run ends where sc_start() would.
    const sc_core::sc_time slice = MeshSystem::cycle_time() * static_cast<double>(progress_slice_);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // initializes: until then nothing is pending
    while (sc_core::sc_get_status() != sc_core::SC_STOPPED && sc_core::sc_pending_activity()) {
      sc_core::sc_start(std::max(slice, sc_core::sc_time_to_pending_activity()), sc_core::SC_EXIT_ON_STARVATION);
      progress_(now());
    }
  }
  if (!mesh_->refusal().empty()) throw ConfigError(mesh_->refusal());
  if (!mesh_->error().empty()) throw SimulationError(mesh_->error());
  const Scoreboard& board = mesh_->scoreboard();
  if (!board.errors().empty()) throw SimulationError("message delivery: " + board.errors().front());
  if (stopped_) return;
  auto blocked = mesh_->blocked_processes();
  if (!blocked.empty() || running_ > 0) {
    std::string msg = "simulation ended at cycle " + std::to_string(now()) + " with " +
                      std::to_string(std::max(blocked.size(), running_)) +
                      " process(es) that cannot finish";
    for (std::size_t i = 0; i < blocked.size() && i < 8; ++i) msg += "\n  " + blocked[i];
    throw SimulationError(msg);
  }
}

void Machine::stop() {
  stopped_ = true;
  sc_core::sc_stop();
}

BarrierMeasurement measure_barrier(Machine& m, const Communicator& c, std::uint64_t not_before) {
  const std::size_t n = c.members().size();
  BarrierMeasurement out;
  std::size_t joined = 0, released = 0, left = 0;
  std::uint64_t last_release = 0, first_release = ~0ull;
  sc_core::sc_event all_joined, all_released, all_left;
  // Every member's software, as callbacks on its node (nothing here blocks).
  const auto each_member = [&](auto step) {
    for (const TreeNode& t : c.members()) step(m.node(t.node));
  };
  each_member([&](Node& node) {
    join(node, c, [&](bool in_hardware) {
      if (!in_hardware) ++out.software_fallbacks;
      if (++joined == n) all_joined.notify(sc_core::SC_ZERO_TIME);
    });
  });
  // Quiet: no message in the network but this barrier's. Under load, no sync message
  // (CS setup and teardown included) but this barrier's, so its latency and hops are its
  // own.
  const bool loaded = m.mesh().has_traffic();
  const auto settle = [&] {
    if (loaded) m.mesh().wait_sync_drained();
    else m.mesh().wait_idle();
  };
  while (joined < n) sc_core::wait(all_joined);
  settle();
  if (loaded) m.mesh().wait_cycle(not_before);
  // Every member arrives in the next cycle.
  out.arrival_cycle = m.now() + 1;
  const std::uint64_t hops_before = m.mesh().core().counters().sync_hops;
  const auto wall0 = std::chrono::steady_clock::now();
  m.mesh().at(out.arrival_cycle, [&] {
    each_member([&](Node& node) {
      barrier(node, c, [&](std::uint64_t r) {
        last_release = std::max(last_release, r);
        first_release = std::min(first_release, r);
        if (++released == n) all_released.notify(sc_core::SC_ZERO_TIME);
      });
    });
  });
  while (released < n) sc_core::wait(all_released);
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  settle();
  out.latency_cycles = last_release - out.arrival_cycle;
  out.first_release = first_release - out.arrival_cycle;
  out.hops = m.mesh().core().counters().sync_hops - hops_before;
  // Leave, so the registers are free for the next group.
  each_member([&](Node& node) {
    leave(node, c, [&] {
      if (++left == n) all_left.notify(sc_core::SC_ZERO_TIME);
    });
  });
  while (left < n) sc_core::wait(all_left);
  settle();
  return out;
}

}  // namespace meshsync

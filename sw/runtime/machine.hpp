// The simulated machine: a mesh of routers with their network interfaces, one node
// (processor + software) per position, and the group table. One Machine is one SystemC
// simulation; constructing a new one starts a fresh SystemC context, so tests and sweeps
// can build many in one process.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../model/core/errors.hpp"
#include "communicator.hpp"
#include "node.hpp"

namespace meshsync {

class Machine {
 public:
  explicit Machine(const ValidConfig& cfg);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  MeshSystem& mesh() { return *mesh_; }
  // Node n's software side, created on first use.
  Node& node(NodeId n);
  GroupTable& groups() { return groups_; }
  std::uint64_t now() const { return mesh_->now_cycle(); }

  // A software thread (runs once the simulation starts, or at once if it is running).
  void spawn(const std::string& name, std::function<void()> body);
  // Runs `job` on node n's own software thread, created on first use and kept for the
  // whole simulation (SystemC deletes finished processes in linear time, which a 64x64
  // mesh would feel). Jobs on one node run one after the other, in order.
  void post(NodeId n, std::function<void()> job);
  // Simulates until every thread finished and the network drained. Throws
  // SimulationError on deadlock or when threads are left blocked.
  void run();
  // Called with the current cycle between slices of the simulation (a progress bar):
  // run() then simulates `slice` cycles at a time, each ending early when nothing is left
  // to simulate. The events and their order are those of one run: the results do not
  // depend on it.
  using ProgressCallback = std::function<void(std::uint64_t cycle)>;
  void on_progress(ProgressCallback callback, std::uint64_t slice = 1000);
  // Ends the simulation once the current cycle's callbacks have run, with work left in
  // the network and software still waiting for it (a measurement that has what it
  // needs, or has seen enough of a saturated network); run() then reports no blocked
  // process.
  void stop();

 private:
  bool stopped_ = false;
  ProgressCallback progress_;
  std::uint64_t progress_slice_ = 1000;
  std::unique_ptr<MeshSystem> mesh_;
  std::vector<std::unique_ptr<Node>> nodes_;  // null until first used
  GroupTable groups_;
  std::size_t running_ = 0;  // spawned threads and posted jobs not yet finished
  struct Software {
    std::deque<std::function<void()>> jobs;
    sc_core::sc_event ready;
    bool started = false;
  };
  std::vector<std::unique_ptr<Software>> software_;
};

// One measured barrier, as the BTM paper measures it: every member has joined and the
// network is quiet, then all members arrive in the same cycle.
struct BarrierMeasurement {
  std::uint64_t arrival_cycle = 0;
  std::uint64_t latency_cycles = 0;  // common arrival to the last release
  std::uint64_t first_release = 0;   // relative to the arrival
  std::uint64_t hops = 0;            // links crossed by sync messages, both phases
  std::size_t software_fallbacks = 0;  // members whose router had no free register
  double wall_seconds = 0;             // host time of the barrier itself
};

// Call from a driver thread of a running Machine: every member joins, the network
// drains, all members arrive in the same cycle; once all are released they leave, so the
// registers are free again. The members' software runs as callbacks (the non-blocking
// join, barrier and leave), not as a thread each: a 1024x1024 mesh has a million members. Under background load (a
// traffic generator attached) the network never drains: the members arrive in the cycle
// after they have joined, but not before `not_before` (the load's warm-up).
BarrierMeasurement measure_barrier(Machine& m, const Communicator& c, std::uint64_t not_before = 0);

}  // namespace meshsync

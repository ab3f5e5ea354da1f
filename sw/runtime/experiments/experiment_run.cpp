#include "experiment_run.hpp"

#include <chrono>
#include <optional>

#include "../../../model/core/network_core.hpp"

namespace meshsync {

TrafficParams background_params(const BackgroundLoad& l, std::uint64_t seed) {
  TrafficParams p;
  p.pattern = parse_pattern(l.pattern);
  p.rate = l.rate;
  p.flits = static_cast<std::uint16_t>(l.flits);
  p.warmup = static_cast<std::uint64_t>(l.warmup);
  p.cycles = std::uint64_t{1} << 50;  // until end_window
  p.seed = seed;
  return p;
}

void check_drained(const TrafficGenerator& gen) {
  if (!gen.finished())
    throw SimulationError("traffic did not drain: " + std::to_string(gen.scoreboard().in_flight()) +
                          " packets undelivered");
  if (!gen.scoreboard().errors().empty())
    throw SimulationError("scoreboard: " + gen.scoreboard().errors().front());
}

ExperimentRun::ExperimentRun(const ValidConfig& cfg, const MachineHook& hook) : machine_(*new Machine(cfg)) {
  if (hook) hook(machine_);
}

TrafficGenerator& ExperimentRun::add_load(const TrafficParams& p) {
  load_ = std::make_unique<TrafficGenerator>(p, machine_.mesh().config().mesh, 1);
  machine_.mesh().attach_traffic(load_.get());
  return *load_;
}

void ExperimentRun::run(const std::function<void()>& driver, const std::string& name) {
  if (const std::optional<std::string> error = run_reporting(driver, name)) throw SimulationError(*error);
  if (load_) check_drained(*load_);
}

std::optional<std::string> ExperimentRun::run_reporting(const std::function<void()>& driver, const std::string& name) {
  if (driver)
    machine_.spawn(name, [this, driver] {
      driver();
      // The load was measured while the driver worked; now it drains.
      if (load_) load_->end_window(machine_.now());
    });
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<std::string> error;
  // Caught in the frame that started the simulation: an exception that SystemC rethrows
  // from a process and that unwinds further frames trips ASan's stack bookkeeping
  // (libsystemc's coroutine stacks), so it ends here and a fresh one is thrown.
  try {
    machine_.run();
  } catch (const SimulationError& e) {
    error = e.what();
  }
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return error;
}

}  // namespace meshsync

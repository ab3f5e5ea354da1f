// How far a long run is, on one line of stderr: a sweep's points, a simulation's cycles.
// Drawn where a person watches (stderr a terminal, the output not --json) or where asked
// (`--progress on`: a line every few seconds when stderr is not a terminal); never on
// stdout, so tables and JSON stay clean (docs/cli.md, "Progress").
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace meshsync {

class Machine;

// `--progress`: auto draws on a terminal and not with --json.
enum class ProgressMode { Auto, On, Off };
bool progress_wanted(ProgressMode mode, bool json);

class ProgressBar {
 public:
  // `quiet_seconds`: nothing is drawn before, so short runs print nothing.
  ProgressBar(std::string label, std::string unit, bool enabled, double quiet_seconds = 2);
  ~ProgressBar();  // finish()
  // Ends the line it drew, before the results are printed; nothing is drawn after.
  void finish();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  bool enabled() const { return enabled_; }
  // `total` 0: not known, so no bar and no estimate, only how far the run got.
  void set_total(std::uint64_t total) { total_ = total; }
  // `done` units so far, `done_before` of them from before this run (a resumed sweep's
  // points): the estimate counts only this run's pace. Draws at most once a second.
  void update(std::uint64_t done, std::uint64_t done_before = 0);
  // Draws now (a sweep's point finished), within the same quiet time.
  void draw_now();

 private:
  using Clock = std::chrono::steady_clock;
  void draw();
  double since(Clock::time_point t) const;

  std::string label_, unit_;
  bool enabled_, terminal_;
  double quiet_seconds_;
  std::uint64_t total_ = 0, done_ = 0;
  Clock::time_point start_ = Clock::now(), changed_ = start_, drawn_{};
  // The estimate at the last change of `done`, counted down until the next: it moves
  // with the clock rather than only when a unit finishes.
  double eta_at_change_ = -1;
  bool drew_ = false;
};

// Moves `bar` with the simulated cycle while `machine` runs, when the bar is shown at all:
// only then is the simulation run in slices (Machine::on_progress). Several machines in
// turn share one bar: `before` cycles counted already, each machine at most `cap` (0: no cap).
void follow_cycles(Machine& machine, ProgressBar& bar, std::uint64_t before = 0, std::uint64_t cap = 0);

}  // namespace meshsync

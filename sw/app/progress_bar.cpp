#include "progress_bar.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>
#include <unistd.h>

#include "../runtime/machine.hpp"

namespace meshsync {

bool progress_wanted(ProgressMode mode, bool json) {
  if (mode == ProgressMode::Auto) return !json && isatty(STDERR_FILENO);
  return mode == ProgressMode::On;
}

ProgressBar::ProgressBar(std::string label, std::string unit, bool enabled, double quiet_seconds)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      enabled_(enabled),
      terminal_(isatty(STDERR_FILENO)),
      quiet_seconds_(quiet_seconds) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::finish() {
  if (drew_ && terminal_) {
    std::fputs("\n", stderr);
    std::fflush(stderr);
  }
  enabled_ = false;
  drew_ = false;
}

double ProgressBar::since(Clock::time_point t) const {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void ProgressBar::update(std::uint64_t done, std::uint64_t done_before) {
  if (!enabled_) return;
  if (done != done_) {
    changed_ = Clock::now();
    const std::uint64_t run_now = done > done_before ? done - done_before : 0;
    if (total_ > 0 && run_now > 0 && done <= total_)
      eta_at_change_ = since(start_) / static_cast<double>(run_now) * static_cast<double>(total_ - done);
    done_ = done;
  }
  // A line a second on a terminal; in a log, one every ten.
  if (since(drawn_ == Clock::time_point{} ? start_ : drawn_) >= (terminal_ ? 1.0 : 10.0) || !drew_) draw();
}

void ProgressBar::draw_now() {
  if (enabled_) draw();
}

void ProgressBar::draw() {
  const double elapsed = since(start_);
  if (elapsed < quiet_seconds_) return;
  drawn_ = Clock::now();
  std::string line = label_ + " ";
  if (total_ > 0) {
    constexpr std::uint64_t kWidth = 30;
    const std::uint64_t filled = kWidth * std::min(done_, total_) / total_;
    line += fmt::format("[{}{}] {}/{} {}", std::string(filled, '#'), std::string(kWidth - filled, '.'), done_, total_,
                        unit_);
  } else {
    line += fmt::format("{} {}", done_, unit_);
  }
  if (eta_at_change_ >= 0 && done_ < total_)
    line += fmt::format(", ETA {:.0f} s", std::max(0.0, eta_at_change_ - since(changed_)));
  else
    line += fmt::format(", {:.0f} s", elapsed);
  if (terminal_) fmt::print(stderr, "\r{}   ", line);
  else fmt::print(stderr, "{}\n", line);
  std::fflush(stderr);
  drew_ = true;
}

void follow_cycles(Machine& machine, ProgressBar& bar, std::uint64_t before, std::uint64_t cap) {
  if (bar.enabled())
    machine.on_progress([&bar, before, cap](std::uint64_t cycle) {
      bar.update(before + (cap > 0 ? std::min(cycle, cap) : cycle));
    });
}

}  // namespace meshsync

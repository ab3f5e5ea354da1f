// A subcommand's waveform (--trace, --trace-routers, --trace-window; docs/waveforms.md):
// the options checked before anything runs, the probe attached to the run's machine, and
// the files closed when the command ends. A command that fails before its simulation
// starts (bad input) leaves no file behind; one that fails in the simulation (a deadlock)
// keeps the trace of what led there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "../../model/trace/wave_probe.hpp"
#include "../runtime/machine.hpp"
#include "network_options.hpp"

namespace meshsync {

// The Verilated routers' own trace beside TRACE (docs/waveforms.md): TRACE.rtl.fst.
std::string rtl_trace_path(const std::string& trace);

class TraceSession {
 public:
  // Throws ConfigError (one line) for a bad router list or window, or either without
  // --trace.
  explicit TraceSession(const NetworkOptions& o);
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;
  ~TraceSession();

  // The machine the trace records (nothing without --trace); ConfigError if the command
  // runs a second one (a trace records one simulation).
  void attach(Machine& m);
  const WaveProbe* probe() const { return probe_.get(); }

 private:
  WaveOptions options_;
  std::unique_ptr<WaveProbe> probe_;
};

}  // namespace meshsync

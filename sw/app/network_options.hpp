// Options shared by the simulating subcommands.
#pragma once

#include <string>

#include "../../model/core/config.hpp"
#include "progress_bar.hpp"

namespace meshsync {

// The CLI writes straight into `config`, so the defaults are config.hpp's;
// config.validate() checks how the values combine.
struct NetworkOptions {
  NetworkConfig config;
  // RTL co-simulation (docs/rtl.md): positions "all" | "x,y;x,y;..." | "random:N".
  std::string rtl, lockstep;
  // Threads that evaluate the cycle's busy RTL routers (the caller's included).
  int threads = 1;
  // Waveform (docs/waveforms.md): the file (FST, or VCD by its name), the routers it
  // shows (empty: all) and the cycles "FROM:TO" (empty: all).
  std::string trace, trace_routers, trace_window;
  // Off: run even when the network may not fit in the memory available (memory_check.hpp).
  bool memory_check = true;
  ProgressMode progress = ProgressMode::Auto;
  // An allocation pipeline preset (kPipelinePresets), applied where no option says otherwise.
  std::string pipeline;
  bool wants_rtl() const { return !rtl.empty() || !lockstep.empty(); }
};

// A simulating subcommand's options: the network, the experiment's parameters (the CLI
// writes them, like NetworkOptions::config), and JSON or a table.
template <class Params>
struct SimulationOptions {
  NetworkOptions net;
  Params params;
  bool json = false;
};

}  // namespace meshsync

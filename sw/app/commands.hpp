// The `meshsync` subcommands. Each takes its parsed options and returns an exit code;
// bad input is thrown as ConfigError (one line), failed simulations as SimulationError.
#pragma once

#include <cstdint>
#include <string>

#include "../../model/core/config.hpp"

namespace meshsync {

// Network options shared by the subcommands, as the user typed them (signed, so that a
// negative value gets a clear message instead of a wrap-around).
struct NetworkOptions {
  std::string mesh = "8x8";
  std::int64_t ts = 1000, tp = 5, trn = 5, trm = 30;
  std::int64_t buffer_depth = 16, sync_buffer_depth = 4, registers = 4, max_children = 8;
  std::int64_t deadlock_cycles = 100000;
  // RTL co-simulation (docs/rtl.md): positions "all" | "x,y;x,y;..." | "random:N".
  std::string rtl, lockstep;
  std::string trace;  // FST of the Verilated routers
  NetworkConfig resolve() const;  // throws ConfigError
};

struct BarrierOptions {
  NetworkOptions net;
  std::string members = "all";
  std::string scheme = "btm";
  std::int64_t repeat = 1;
  std::uint64_t seed = 1;
  bool json = false;
  std::string vcd;
};
int run_barrier(const BarrierOptions& o);

struct TreeOptions {
  std::string mesh = "8x8";
  std::string members = "all";
  std::string scheme = "btm";
  std::uint64_t seed = 1;
  bool json = false;
  bool dot = false;
};
int run_tree(const TreeOptions& o);

struct TrafficOptions {
  NetworkOptions net;
  std::string pattern = "uniform";
  double rate = 0.1;
  std::int64_t flits = 1;
  std::int64_t cycles = 10000;
  std::int64_t warmup = 1000;
  std::uint64_t seed = 1;
  bool json = false;
  std::string vcd;
};
int run_traffic(const TrafficOptions& o);

}  // namespace meshsync

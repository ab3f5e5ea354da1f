// RTL routers in place of the model's cores for a subcommand's run (--rtl, --lockstep,
// --trace; docs/cosim.md), and how the run reports them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../model/cosim/cosim_module.hpp"
#include "../runtime/machine.hpp"
#include "memory_check.hpp"
#include "network_options.hpp"
#include "trace_session.hpp"

namespace meshsync {

// RTL routers in place of the cores (--rtl, --lockstep, --trace); null when none asked.
struct Cosim {
  std::unique_ptr<rtl::CosimRun> run;  // from the co-simulation module (cosim_loader.hpp)
  std::size_t rtl = 0, lockstep = 0;
  std::string config;
};

// What the network options put on a run's machine (the subcommands' MachineHook): the RTL
// routers `o` asks for (none: an empty Cosim), then `trace`'s waveform probe, which shows
// which routers are RTL. ConfigError for a bad request or a build without co-simulation.
// `use`: what the run may allocate, for the memory check (memory_check.hpp): every
// router by default.
Cosim attach_network(Machine& m, const NetworkOptions& o, std::uint64_t seed, TraceSession& trace,
                     const MemoryUse& use = {});
// Router-cycles the lockstep compared.
std::uint64_t cycles_compared(const Cosim& c);
void to_json(nlohmann::json& j, const Cosim& c);
// One line on the RTL routers that took part (nothing without them).
void print_cosim(const Cosim& c);
// print_json_result with the RTL routers that took part.
void print_json(nlohmann::json j, const NetworkConfig& cfg, const Cosim& cosim, double wall,
                const std::vector<std::string_view>& leave_out = {});

// A simulating subcommand's output and exit code: its JSON (given the host time), or its
// table followed by the RTL routers' line and the host time.
template <class PrintJson, class PrintTable>
int report(bool as_json, const Cosim& cosim, double wall, PrintJson print_json_result, PrintTable print_table) {
  if (as_json) {
    print_json_result(wall);
    return 0;
  }
  print_table();
  print_cosim(cosim);
  fmt::print("wall time {:.3f} s\n", wall);
  return 0;
}

}  // namespace meshsync

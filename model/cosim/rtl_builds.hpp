// The Verilated router configurations linked into a program. Verilog parameters are fixed
// when Verilator builds the model, so a co-simulation needs a configuration whose
// parameters equal the run's NetworkConfig (those with use "cosim" in
// rtl/configurations.txt; add one there to co-simulate other depths, register counts or
// router delays).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/core/config.hpp"
#include "verilated_router.hpp"

namespace meshsync::rtl {

struct RtlBuild {
  RtlParams params;
  // A router of this configuration in `ctx` (a mesh's shared context), named `instance`.
  std::function<std::unique_ptr<RtlRouter>(VerilatedContext* ctx, const std::string& instance)> make;
};

// Every configuration of this program (the built-in ones, then any added).
std::vector<RtlBuild>& rtl_builds();
void add_rtl_build(RtlBuild b);
// The configuration named `name`, or (empty name) the first whose parameters match `cfg`.
// Throws ConfigError naming the mismatch and the configurations there are.
const RtlBuild& find_rtl_build(const NetworkConfig& cfg, const std::string& name = "");

}  // namespace meshsync::rtl

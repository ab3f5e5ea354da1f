// The C++ router core beside an RTL router, in lockstep: the core's cycle recorded as the
// port values the RTL must show, and the comparison of the two (docs/rtl.md,
// "Verification"). Used by the mesh co-simulation (--lockstep) and the single-router RTL
// tests (tb/rtl/lockstep.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "model/core/router_core.hpp"
#include "rtl_ports.hpp"

namespace meshsync::rtl {

// What the core did in one cycle, on its ports.
struct ModelCycle {
  std::array<std::optional<Flit>, kRtlOutputs> out;  // the five ports, then ejection outputs
  std::array<std::array<bool, kRtlVcs>, kPorts> credit{};
  std::array<std::array<bool, kRtlVcs>, kMaxNiChannels> injection_pop{};
  bool idle_before = false;  // nothing held at the start of the cycle (RTL idle_o)
  bool error = false;        // the core threw: a protocol violation
  std::string error_text;

  // Flits granted and credits returned in the cycle: what compare_cycle checks on the
  // outputs when neither side reports an error.
  int flits() const;
  int credits() const;
};

// Runs core.step(c) and records its outputs.
ModelCycle step_core(RouterCore& core, std::uint64_t c);

// What else the RTL must show in the cycle: the register port's outcome when it was used,
// and per injection channel and VC whether a flit presented now fits.
struct ModelPorts {
  RegOp reg_op = RegOp::None;
  bool reg_ok = false;
  std::array<std::array<bool, kRtlVcs>, kMaxNiChannels> local_fits{};
};
ModelPorts model_ports(const RouterCore& core, RegOp op, bool reg_ok, const NetworkConfig& cfg);

// The first difference between the core's cycle and the RTL's outputs, as
// "port -X: expected vc 1 0x... (sync ...), actual <none>"; empty when they agree.
std::string compare_cycle(const ModelCycle& m, const ModelPorts& p, const RtlOutputs& r,
                          const MeshShape& mesh);

}  // namespace meshsync::rtl

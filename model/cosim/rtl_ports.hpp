// The ports of the RTL router (rtl/meshsync_router.sv, docs/rtl.md "Ports and timing") as
// plain values: what a bench presents in one cycle and what the router shows in it.
// Shared by the mesh co-simulation (Verilator C++ models) and the single-router RTL tests.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/core/router/barrier_register_file.hpp"
#include "model/core/config.hpp"
#include "model/core/flit.hpp"
#include "model/core/flit_format.hpp"
#include "model/core/geometry.hpp"

namespace meshsync::rtl {

// Virtual channels of the widest RTL router: all of the model's (the worm VC, two sync
// VCs, the snake VC of multidestination worms, the tree VC, and up to seven more unicast
// VCs). A router's own count is RtlParams::vcs(); the arrays below hold the widest.
inline constexpr int kRtlVcs = kMaxVcs;
// Inputs and outputs of the widest router (all-port NI): the five ports, injection
// channels 1-3 on inputs 5-7, the ejection outputs of inputs +X..-Y on outputs 5-8
// (docs/microarchitecture.md "NI ports"). A one-port router uses the first five.
inline constexpr int kRtlInputs = kPorts + 3;
inline constexpr int kRtlOutputs = kPorts + 4;
inline constexpr int kMaxNiChannels = 4;
// The input of injection channel `ch` and the NI output of input `i`, in a router with
// `ni_ports` channels (the model's RouterCore numbering).
constexpr int input_of_channel(int ch) { return ch == 0 ? 0 : kPorts + ch - 1; }
constexpr int ejection_output(int i, int ni_ports) {
  return ni_ports > 1 && i >= 1 && i < kPorts ? kPorts + i - 1 : 0;
}

// Parameters a Verilated configuration was built with (they are Verilog parameters, so
// fixed when the model is built; rtl/configurations.txt names the configurations). The
// router's parameters are the rows of kParameters (model/core/parameters.hpp) that name a
// Verilog parameter. A default-constructed RtlParams holds the model's defaults;
// verilog_defaults() the Verilog ones (Parameter::rtl_default, which
// rtl/meshsync_router.sv declares; tb/rtl/test_contract.cpp checks).
struct RtlParams {
  std::string name;
  // Largest mesh side the coordinates can hold: RTL only (the RTL's defaults, 8x8).
  int mesh_w = 8;
  int mesh_h = 8;
  // The fields of the table's rows with an RTL parameter; the others (ts, tp) are not the
  // router's and keep their defaults.
  Timing timing;
  RouterParams router;

  int ni_ports() const { return static_cast<int>(router.ni_ports); }  // NiPorts: 1 or 4
  int max_children() const { return static_cast<int>(router.max_children); }
  int inputs() const { return kPorts + ni_ports() - 1; }
  // VCs per port (NumVcs) and the bits of a VC number on the ports (VcW).
  int vcs() const { return router.vcs(); }
  int vc_bits() const { return vcs() > 8 ? 4 : 3; }
  int outputs() const { return ni_ports() > 1 ? kPorts + 4 : kPorts; }
};

// The router meshsync_router.sv builds without parameters: the design point
// (Parameter::rtl_default).
RtlParams verilog_defaults();
// A configuration from its line in rtl/configurations.txt: the Verilog parameters that
// differ from the Verilog defaults, "BufferDepth=16 Trn=2 ...". Throws std::invalid_argument for
// a parameter the model has no counterpart for, a malformed entry or a value outside
// the parameter's range.
RtlParams parse_rtl_params(const std::string& name, const std::string& verilog_params);
// The network parameters a configuration's router behaves like (timing other than trn and
// trm, which the router does not see, keeps config.hpp's defaults).
NetworkConfig network_config(const RtlParams& p);
// `c` with the router `p` was built as (its Verilog parameters), the rest kept: a run
// that matches that configuration.
NetworkConfig with_router(NetworkConfig c, const RtlParams& p);
// Whether a run with `c` can use routers built with `p`: every parameter equal but the
// capacities (Parameter::rtl_capacity).
bool matches(const RtlParams& p, const NetworkConfig& c);
// Throws ConfigError (one line) for what the model has and no RTL router does: a
// parameter marked rtl_lacks at other than its default.
void require_rtl_features(const NetworkConfig& c);
// The router parameters a run asks for (what a configuration must have to serve it).
RtlParams router_params(const NetworkConfig& c);
// "trn 5, trm 30, buffer-depth 16, ..., ni one-port": the router parameters (the table's
// rows with an RTL parameter, by option name), for messages.
// `capacities`: also the rows that do not decide a match (a run's description says only
// what a build must equal).
std::string describe_router(const RtlParams& p, bool capacities = true);
// "default (trn 5, ..., mesh up to 128x128)".
std::string describe(const RtlParams& p);

enum class RegOp : std::uint8_t { None = 0, Program = 1, Free = 2 };

// What the bench presents in one cycle: everything here is taken at the next clock edge.
struct RtlInputs {
  std::array<bool, kRtlInputs> in_valid{};
  std::array<std::uint8_t, kRtlInputs> in_vc{};
  std::array<std::uint32_t, kRtlInputs> in_flit{};
  std::array<std::array<bool, kRtlVcs>, kPorts> credit_in{};
  RegOp reg_op = RegOp::None;
  std::uint8_t reg_gid = 0;
  bool reg_parent_valid = false;
  int reg_parent_x = 0;
  int reg_parent_y = 0;
  bool reg_route = false;
  std::uint8_t reg_slot = 0;
  bool reg_transit = false;
  int reg_num_children = 0;
  std::array<int, 64> reg_child_x{};
  std::array<int, 64> reg_child_y{};
  std::array<bool, 64> reg_child_route{};
};

// What the router shows in the current cycle (combinational outputs).
struct RtlOutputs {
  std::array<bool, kRtlOutputs> out_valid{};
  std::array<std::uint8_t, kRtlOutputs> out_vc{};
  std::array<std::uint32_t, kRtlOutputs> out_flit{};
  std::array<std::array<bool, kRtlVcs>, kPorts> credit_out{};
  // Per injection channel and VC: a flit presented now fits.
  std::array<std::array<bool, kRtlVcs>, kMaxNiChannels> local_ready{};
  // Per injection channel and VC: a flit left the channel's input buffer (inj_pop_o).
  std::array<std::array<bool, kRtlVcs>, kMaxNiChannels> injection_pop{};
  bool reg_ok = false;
  bool error = false;
  bool idle = false;
};

// The 32-bit hardware flit (docs/microarchitecture.md) of a model flit.
std::uint32_t encode_flit(const Flit& f, const MeshShape& mesh);
// A word that is no flit of the format on the mesh at hand.
struct FlitFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A sync message's head from its hardware bits (tail = 0: a reduction message's, its vector
// behind it); the model-only fields say it was made at `self` (the barrier unit builds its
// messages there). Throws FlitFormatError for bits no sync message on `mesh` has (a
// destination outside the mesh), which decoding would otherwise turn into a different
// message.
Flit decode_sync(std::uint32_t bits, const MeshShape& mesh, NodeId self);
bool is_sync_head(std::uint32_t bits);
// "sync release gid 3 data 0 dest (2,5) R=YX" and the like.
std::string describe_flit(std::uint32_t bits);
// "Local", "+X", "-X", "+Y", "-Y", then "inject 1".."inject 3" (inputs 5-7): input names
// in mismatch reports and traces.
const char* port_label(int port);
// Output names: the five ports, then "eject +X".."eject -Y" (outputs 5-8).
const char* output_label(int output);

// The register port inputs for programming `s` (children beyond `max_children` make the
// count say "too many").
void set_program(RtlInputs& in, const BarrierRegisterSetup& s, const MeshShape& mesh, int max_children);

}  // namespace meshsync::rtl

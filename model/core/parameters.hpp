// The router and timing parameters: the structs that hold them and the one table that
// describes them (name, range, help line, RTL parameter, JSON key). Everything that lists
// the parameters iterates the table: the command line's options, their help and ranges
// (sw/app/cli.cpp), NetworkConfig::validate()'s range checks (config.hpp), the JSON form
// of a configuration (sw/app/json_io.cpp), the mapping to the RTL router's Verilog
// parameters (model/cosim/rtl_ports.cpp) and the contract test that holds
// rtl/meshsync_router.sv's defaults to them (tb/rtl/test_contract.cpp). A parameter
// added here appears in all of them; the default is the field's initializer below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

#include "flit.hpp"

namespace meshsync {

// Cycles of the network clock (NOTES.md "Timing model"; 1 cycle = 1 ns at 1 GHz).
struct Timing {
  std::uint32_t ts = 1000;  // start-up at the network interface
  std::uint32_t tp = 5;     // one link traversal
  std::uint32_t trn = 5;    // router delay when a router only forwards
  std::uint32_t trm = 30;   // router delay when a member router processes a sync message
};

struct RouterParams {
  // Worm VC input buffer, flits. Full link throughput needs depth >= 2*tp + trn + 1 (the
  // credit round trip, docs/microarchitecture.md); 16 covers the paper's timing.
  std::uint32_t buffer_depth = 16;
  // Each of the two sync VCs; sync messages are single flits and rare.
  std::uint32_t sync_buffer_depth = 4;
  // Barrier registers per router (the CAM size).
  std::uint32_t barrier_registers = 4;
  // Children one register can hold (BTM needs 4; a CS root may have more). A member with
  // more children keeps its register in node memory instead (software fallback).
  std::uint32_t max_children = 8;
  // Channels between the router and its network interface. 1 (one-port): one injection
  // channel and the Local output. 4 (all-port, the QG paper's model): four injection
  // channels, and every input link ejects on a channel of its own, so an absorbing
  // multidestination worm never waits for another one at the NI (docs/deadlock.md).
  std::uint32_t ni_ports = 1;
  // The tree worm VC (docs/tree-multicast.md). A tree worm moves on only into a buffer
  // that has room for all of it (virtual cut-through), so this is also the longest tree
  // worm: 66 flits hold a head, a fragment index and a 256-byte fragment. 0: the router
  // has no tree VC, and tree multicasts are refused.
  std::uint32_t tree_buffer_depth = 66;
  // Multidestination (path) worms: absorb-and-forward at the routers and the snake VC
  // (VC 3, buffer_depth deep). 0: a router for unicast worms only (no VC 3), and path-based
  // multicasts with multidestination worms are refused.
  std::uint32_t path_worms = 1;
  // In-network reduction (docs/reduction-hardware.md): the 32-bit words of a vector each
  // barrier register holds per operand, in five lanes (four children and the node's own).
  // 0: the routers reduce nothing, and in-network reductions are refused. 1024 holds the
  // 4 KiB vectors of the experiments; the RTL's lanes are flops, and far fewer.
  std::uint32_t reduce_words = 1024;
  // VCs of ordinary (unicast) worms per input, each buffer_depth deep (VC 0 and VCs 5..;
  // flit.hpp). A head takes a free one of its output's at every hop, chosen by
  // vc_allocation. 1: every worm on VC 0, the papers' router.
  std::uint32_t unicast_vcs = 1;
  // Which free unicast VC (with a credit) a head takes: 0 round-robin (from the one after
  // the output's last choice), 1 the one with the most credits (lowest on a tie).
  std::uint32_t vc_allocation = 0;
  // The allocation pipeline's head stages (docs/microarchitecture.md, "Allocation
  // pipeline"): cycles a worm head spends at the front of its VC in route computation
  // (0: lookahead routing, computed upstream) and in VC allocation (0: speculative, in
  // parallel with switch allocation) before its t_rn; the VC idles meanwhile. 0 and 0:
  // the papers' router, where t_rn alone is the hop.
  std::uint32_t routing_stage = 0;
  std::uint32_t va_stage = 0;
  // The switch allocator (docs/microarchitecture.md, "Switch allocators"): 0 separable
  // input-first (the contract's: each input offers one VC's flit, then the outputs
  // choose), 1 iSLIP with islip_iterations iterations, 2 wavefront. The model only.
  std::uint32_t switch_allocator = 0;
  std::uint32_t islip_iterations = 1;
  std::uint32_t head_stages() const { return routing_stage + va_stage; }

  // VC numbers in use: the five classes and the unicast VCs after VC 0.
  int vcs() const { return kVcs + static_cast<int>(unicast_vcs) - 1; }
  // Depth of VC `vc`'s input buffer (and the credits of that VC on a link).
  std::uint32_t depth(int vc) const {
    if (vc >= kVcs) return vc < vcs() ? buffer_depth : 0;
    if (vc == kTreeVc) return tree_buffer_depth;
    if (vc == kSnakeVc) return path_worms != 0 ? buffer_depth : 0;
    return vc == kWormVc ? buffer_depth : sync_buffer_depth;
  }
};

// The smallest t_rm for which the zero-load formulas of NOTES.md hold exactly, whatever the
// members (docs/microarchitecture.md, "Barrier registers"): the unit takes one message a
// cycle, so of k messages arriving together the last is taken k - 1 cycles after them; the
// batch it completes enters the emitter's FIFO, is taken in the next cycle and stages one
// message a cycle, C children (then the local release) for a release batch. Every child's
// message is in its slot by the batch's due cycle (arrival + t_rm - 1) only if
// t_rm >= k + C + 1. Sync messages enter on the five ports (injection channels 1-3 carry
// worms only), so k <= 5, and C <= max_children: 5 + max_children + 1 (10 at the design
// point's 4 children, 14 at the model's 8).
constexpr std::uint32_t exact_trm_minimum(const RouterParams& p) { return 5 + p.max_children + 1; }

// The smallest t_rm for which a member sends its reduction message when a barrier's would,
// a vector of `words` words (K elements) behind its head (docs/reduction-hardware.md,
// "Timing"): after the last head arrives the unit takes at most five whole messages of
// L = 2 + 2W flits, one flit a cycle (one lane write port), the last by 5L - 1 cycles
// later; the emitter takes the batch in the next cycle and folds up to four children into
// the own vector, one ALU operation a cycle, before it stages the message. A release
// streams in L flits and stages up to max_children messages.
constexpr std::uint32_t exact_reduction_trm_minimum(const RouterParams& p, std::uint32_t words, std::uint32_t elements) {
  const std::uint32_t flits = 2 + 2 * words;
  const std::uint32_t up = 5 * flits + 4 * elements + 2;
  const std::uint32_t down = flits + p.max_children + 1;
  const std::uint32_t barrier = exact_trm_minimum(p);
  const std::uint32_t vector = up > down ? up : down;
  return barrier > vector ? barrier : vector;
}

// A value of a parameter that has names (ni: one-port, all-port).
struct ParameterChoice {
  const char* name;
  std::uint32_t value;
};

// One row of kParameters. A field of Timing or of RouterParams (exactly one of `timing`
// and `router` is set); its JSON object is "timing" or "router" accordingly.
struct Parameter {
  const char* name;      // the option (--name) and the word in validate()'s messages
  const char* json_key;  // its key in the JSON object "timing" or "router"
  const char* rtl;       // the Verilog parameter of meshsync_router, or nullptr: model only
  // Its Verilog default: the router an architect synthesizes (docs/rtl.md, "The design
  // point"), which the model's default (the field's initializer: the papers' network)
  // need not be. 0 for a row without an RTL parameter.
  std::uint32_t rtl_default;
  std::uint32_t min, max;
  const char* unit;        // "cycle", "flit", or "" for a count: validate()'s messages
  const char* doc;         // the option's help line
  const char* min_reason;  // why the minimum (validate()'s message), or ""
  const char* max_reason;  // why the maximum, or ""
  std::uint32_t Timing::*timing = nullptr;
  std::uint32_t RouterParams::*router = nullptr;
  // Parameters with named values take only those (and the names on the command line).
  const ParameterChoice* choices = nullptr;
  std::size_t choice_count = 0;
  // A parameter whose 0 means "the feature is absent" takes 0 below its minimum; this
  // says what 0 builds (validate()'s message), or nullptr.
  const char* zero_means = nullptr;
  // A capacity of the RTL router rather than a behaviour: any build serves a run whatever
  // its value (rtl::matches), and a request that does not fit a build's is refused where
  // it is made (the lanes' words: NetworkInterface::do_reduce). Two routers that differ
  // in it behave alike on everything both can hold.
  bool rtl_capacity = false;
  // A behaviour the model has and no RTL router does yet: an RTL run (--rtl, --lockstep)
  // takes only its default (rtl::require_rtl_features).
  bool rtl_lacks = false;

  const char* json_object() const { return timing != nullptr ? "timing" : "router"; }
  // The field in a NetworkConfig (or anything with `timing` and `router` members).
  template <typename Config>
  auto& of(Config& c) const {
    return timing != nullptr ? c.timing.*timing : c.router.*router;
  }
  constexpr std::uint32_t default_value() const {
    return timing != nullptr ? Timing{}.*timing : RouterParams{}.*router;
  }
  // The name of `value` among the choices, or nullptr.
  const char* choice_name(std::uint32_t value) const {
    for (std::size_t i = 0; i < choice_count; ++i)
      if (choices[i].value == value) return choices[i].name;
    return nullptr;
  }
};

// 10^8: far more than any run needs (the bound of the cycle counts and buffer depths).
inline constexpr std::uint32_t kParameterLarge = 100000000;
// 10^6 for the delays a flit spends in the network: the network's event wheel holds a
// slot per cycle of tp + max(trn, trm) (rounded up to a power of two), so 10^8 would take
// gigabytes before the first cycle; a million cycles per hop is beyond any router.
inline constexpr std::uint32_t kDelayLarge = 1000000;
inline constexpr const char* kDelayReason = "the event wheel holds a slot per cycle of tp + max(trn, trm)";
inline constexpr ParameterChoice kNiChoices[] = {{"one-port", 1}, {"all-port", 4}};
inline constexpr ParameterChoice kOnOff[] = {{"off", 0}, {"on", 1}};
inline constexpr ParameterChoice kVcAllocationChoices[] = {{"round-robin", 0}, {"most-credits", 1}};
inline constexpr ParameterChoice kSwitchAllocatorChoices[] = {{"separable", 0}, {"islip", 1}, {"wavefront", 2}};

// The order is the command line's (--help) and describe_router()'s.
inline constexpr Parameter kParameters[] = {
    // name, JSON key, RTL parameter and its default, min, max, unit, help line, why the
    // minimum, why the maximum
    {"ts", "ts", nullptr, 0, 1, kParameterLarge, "cycle", "start-up at the NI, cycles", "the NI registers the request",
     "", &Timing::ts},
    {"tp", "tp", nullptr, 0, 0, kDelayLarge, "cycle", "link traversal, cycles (0: a hop costs trn alone; the model only)", "", kDelayReason, &Timing::tp},
    {"trn", "trn", "Trn", 5, 1, kDelayLarge, "cycle", "router delay when only forwarding, cycles", "", kDelayReason,
     &Timing::trn},
    {"trm", "trm", "Trm", 30, 1, kDelayLarge, "cycle", "router delay at a member for a sync message, cycles", "",
     kDelayReason, &Timing::trm},
    {"buffer-depth", "buffer_depth", "BufferDepth", 4, 1, kParameterLarge, "flit", "worm VC input buffer, flits", "",
     "", nullptr, &RouterParams::buffer_depth},
    {"tree-buffer-depth", "tree_buffer_depth", "TreeBufferDepth", 10, 2, 65535, "flit",
     "tree worm VC input buffer, flits: the longest tree multicast worm (0: no tree VC)", "a head and a word", "",
     nullptr, &RouterParams::tree_buffer_depth, nullptr, 0, "no tree VC"},
    {"path-worms", "path_worms", "PathWorms", 1, 0, 1, "",
     "multidestination (path) worms: absorb-and-forward and the snake VC (off: unicast worms only)", "", "",
     nullptr, &RouterParams::path_worms, kOnOff, std::size(kOnOff)},
    {"sync-buffer-depth", "sync_buffer_depth", "SyncBufferDepth", 2, 1, kParameterLarge, "flit",
     "each sync VC input buffer, flits", "", "", nullptr, &RouterParams::sync_buffer_depth},
    {"registers", "barrier_registers", "NumRegs", 4, 0, 256, "", "barrier registers per router", "",
     "8-bit GID space", nullptr, &RouterParams::barrier_registers},
    {"max-children", "max_children", "MaxChildren", 4, 4, 64, "", "children one barrier register holds",
     "a BTM member has up to 4", "", nullptr, &RouterParams::max_children},
    {"reduce-words", "reduce_words", "ReduceWords", 0, 1, 65535, "",
     "32-bit words of a vector a barrier register reduces in the router (0: no in-network reduction)", "",
     "a 16-bit count", nullptr, &RouterParams::reduce_words, nullptr, 0, "no in-network reduction", true},
    {"ni", "ni_ports", "NiPorts", 1, 1, 4, "", "one-port | all-port (4 injection, 4 ejection channels)", "", "",
     nullptr, &RouterParams::ni_ports, kNiChoices, std::size(kNiChoices)},
    {"vcs", "unicast_vcs", "UnicastVcs", 1, 1, kMaxUnicastVcs, "", "VCs of unicast worms per input, each buffer-depth deep",
     "", "", nullptr, &RouterParams::unicast_vcs},
    {"vc-allocation", "vc_allocation", "VcAllocation", 0, 0, 1, "",
     "which free unicast VC a worm head takes: round-robin | most-credits", "", "", nullptr,
     &RouterParams::vc_allocation, kVcAllocationChoices, std::size(kVcAllocationChoices)},
    {"routing-stage", "routing_stage", "RoutingStage", 0, 0, 16, "cycle",
     "cycles a worm head spends in route computation at its VC's front (0: lookahead routing)", "", "", nullptr,
     &RouterParams::routing_stage},
    {"va-stage", "va_stage", "VaStage", 0, 0, 16, "cycle",
     "cycles of VC allocation at the VC's front before switch allocation (0: speculative)", "", "", nullptr,
     &RouterParams::va_stage},
    {"switch-allocator", "switch_allocator", nullptr, 0, 0, 2, "",
     "separable | islip | wavefront: separable input-first, or a matching of every VC's request", "", "", nullptr,
     &RouterParams::switch_allocator, kSwitchAllocatorChoices, std::size(kSwitchAllocatorChoices), nullptr, false, true},
    {"islip-iterations", "islip_iterations", nullptr, 0, 1, 4, "", "iterations of the iSLIP allocator", "", "", nullptr,
     &RouterParams::islip_iterations, nullptr, 0, nullptr, false, true},
};

// Allocation pipelines by name (--pipeline): the head stages, and for BookSim2's routers
// the hop timing that matches theirs at zero load (../shared/booksim2/README.md: 1-cycle
// channels, so tp 1; switch allocation and traversal, trn 2). An option given beside a
// preset wins over the preset's value.
struct PipelinePreset {
  const char* name;
  const char* doc;
  bool sets_timing;  // tp and trn too
  std::uint32_t tp, trn, routing_stage, va_stage;
};
inline constexpr PipelinePreset kPipelinePresets[] = {
    {"meshsync", "the papers' router: trn alone is the hop, no head stages", false, 0, 0, 0, 0},
    {"booksim-lean", "BookSim2 with lookahead routing and speculative allocation: tp 1, trn 2 (3 cycles a hop)", true,
     1, 2, 0, 0},
    {"booksim-stock",
     "BookSim2's stock router: route, VC allocation, then switch allocation: tp 1, trn 2, routing and VC "
     "allocation stages of a cycle each (5 cycles a hop)",
     true, 1, 2, 1, 1},
};

// The row called `name` (a parameter's option name). Throws std::logic_error for a name
// the table does not have: a caller's typo, not a user's.
inline const Parameter& parameter(std::string_view name) {
  for (const Parameter& p : kParameters)
    if (name == p.name) return p;
  throw std::logic_error("no parameter '" + std::string(name) + "' in kParameters");
}

// The row whose Verilog parameter is `rtl`, or nullptr.
inline const Parameter* rtl_parameter(std::string_view rtl) {
  for (const Parameter& p : kParameters)
    if (p.rtl != nullptr && rtl == p.rtl) return &p;
  return nullptr;
}

// A value as the command line spells it: its name where it has one ("all-port"), else
// the number.
inline std::string value_text(const Parameter& p, std::uint32_t value) {
  const char* name = p.choice_name(value);
  return name != nullptr ? std::string(name) : std::to_string(value);
}

// The one line validate() throws for `value` outside the parameter's range or choices,
// or "" when it is fine.
inline std::string parameter_error(const Parameter& p, std::uint32_t value) {
  if (p.choices != nullptr) {
    if (p.choice_name(value) != nullptr) return "";
    std::string allowed;
    for (std::size_t i = 0; i < p.choice_count; ++i)
      allowed += (i == 0 ? "" : " or ") + std::to_string(p.choices[i].value) + " (" + p.choices[i].name + ")";
    return std::string(p.name) + " must be " + allowed + ", got " + std::to_string(value);
  }
  const auto bound = [&](const char* which, std::uint32_t limit, const char* reason) {
    std::string m = std::string(p.name) + " must be " + which + " " + std::to_string(limit);
    if (*p.unit != '\0') m += std::string(" ") + p.unit + (limit == 1 ? "" : "s");
    if (*reason != '\0') m += std::string(" (") + reason + ")";
    return m;
  };
  if (value == 0 && p.zero_means != nullptr) return "";
  if (value < p.min) {
    std::string m = bound("at least", p.min, p.min_reason);
    if (p.zero_means != nullptr) m += std::string(", or 0 (") + p.zero_means + ")";
    return m;
  }
  if (value > p.max) return bound("at most", p.max, p.max_reason);
  return "";
}

}  // namespace meshsync

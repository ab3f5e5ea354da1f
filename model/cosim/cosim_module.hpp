// RTL co-simulation as a module of its own (meshsync-cosim.so, docs/cosim.md "How
// co-simulation gets built"): the program loads it the first time a run asks for RTL
// routers, so that building the program Verilates no router. What the program hands the
// module and what it gets back, in types that need neither Verilator's headers nor the
// Verilated routers'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/core/geometry.hpp"

namespace meshsync {
class NetworkCore;
}

namespace meshsync::rtl {

// The RTL routers a run asks for (--rtl, --lockstep, --trace, --threads), checked by the
// program: positions read, the mesh block asked alone.
struct CosimRequest {
  std::vector<NodeId> rtl;       // RTL routers
  std::vector<NodeId> lockstep;  // RTL routers checked against the core (implies rtl)
  std::string trace;             // FST file of the Verilated routers' signals; empty: none
  int threads = 1;               // threads evaluating the cycle's routers
  bool block = false;            // --rtl mesh / --lockstep mesh: the whole mesh as one block
  bool block_lockstep = false;   // --lockstep mesh
};

// RTL routers attached to a run's mesh, alive as long as the run.
class CosimRun {
 public:
  virtual ~CosimRun() = default;
  virtual std::size_t routers() const = 0;
  virtual std::size_t lockstep() const = 0;
  // The RTL configuration's name (rtl/configurations.txt).
  virtual std::string config() const = 0;
  // Router-cycles the lockstep compared.
  virtual std::uint64_t cycles_compared() const = 0;
  // One Verilated block of the whole mesh (--rtl mesh), not routers as sites.
  virtual bool block() const = 0;
};

// The module's entry point, found by this name (C linkage: no mangling to spell). The
// caller owns the result. Throws ConfigError for a request no configuration matches.
using AttachRtl = CosimRun* (*)(NetworkCore& net, const CosimRequest& request);
inline constexpr const char* kAttachRtlSymbol = "meshsync_attach_rtl";

}  // namespace meshsync::rtl

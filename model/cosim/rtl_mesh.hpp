// Verilated RTL routers in the SystemC mesh (docs/rtl.md, "Co-simulation"). At every
// chosen position an RTL site takes the router's place: it presents what the mesh hands
// the router at its ports, one cycle before it takes effect, evaluates it, and turns the
// router's outputs back into flits and credits. With lockstep, the C++ core of that position runs
// beside it on the same inputs and every cycle is compared; the first difference stops
// the simulation.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// Verilator's runtime, seeing SystemC, asks it for the time by the unqualified name.
#include <systemc.h>

#include "model/core/network_core.hpp"
#include "parallel_loop.hpp"
#include "rtl_builds.hpp"

namespace meshsync::rtl {

// The first difference between an RTL router and its core, or an RTL error output.
struct LockstepError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CosimOptions {
  std::vector<NodeId> rtl;       // RTL routers
  std::vector<NodeId> lockstep;  // RTL routers checked against the core (implies rtl)
  std::string config;            // a named RTL configuration; empty: the matching one
  std::string trace;             // FST file of the Verilated routers' signals; empty: none
  int threads = 1;               // threads evaluating the cycle's routers (ParallelLoop)
};

class RtlSite;

class RtlMesh : public sc_core::sc_module, public ExternalRouters {
 public:
  RtlMesh(sc_core::sc_module_name name, NetworkCore& net, const CosimOptions& opt);
  ~RtlMesh() override;

  ExternalRouter* at(NodeId n) override;
  bool step(std::uint64_t cycle, const std::vector<NodeId>& due, RouterLinks& links) override;

  const RtlParams& params() const { return build_->params; }
  std::size_t sites() const { return sites_.size(); }
  std::uint64_t cycles_compared() const { return compared_; }

 private:
  void start_of_simulation() override;
  // Writes the waveform at simulated time `t` (no trace: nothing).
  void dump(sc_core::sc_time t);

  NetworkCore& net_;
  const RtlBuild* build_;
  // One context for all the mesh's routers: one trace file, one error count.
  std::unique_ptr<VerilatedContext> ctx_;
  std::vector<std::unique_ptr<RtlSite>> sites_;
  std::vector<RtlSite*> by_node_;
  std::string trace_path_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::string trace_temporary_;  // where trace_ writes until the run ends (output_files)
  void close_trace();  // closes trace_ and checks it reads back
  std::uint64_t compared_ = 0;
  ParallelLoop pool_;
};

}  // namespace meshsync::rtl

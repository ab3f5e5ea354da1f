// The fuzz targets parse the command line and never run a subcommand, so the
// subcommands (and SystemC's sc_main, which libsystemc's main would call) are not linked:
// that keeps the simulator out of this build. Reaching one of these is a finding.
// A new subcommand needs its run_* here too (the link says which).
#include <cstdio>
#include <cstdlib>

#include "sw/app/commands.hpp"

namespace {
[[noreturn]] int ran(const char* what) {
  std::fprintf(stderr, "fuzz: %s ran; the fuzz targets must only parse\n", what);
  std::abort();
}
}  // namespace

namespace meshsync {
int run_barrier(const BarrierOptions&) { ran("run_barrier"); }
int run_tree(const TreeOptions&) { ran("run_tree"); }
int run_traffic(const TrafficOptions&) { ran("run_traffic"); }
int run_multicast_plan(const MulticastPlanOptions&) { ran("run_multicast_plan"); }
int run_multicast(const MulticastOptions&) { ran("run_multicast"); }
int run_sweep(const SweepOptions&) { ran("run_sweep"); }
int run_bcast(const BcastOptions&) { ran("run_bcast"); }
int run_adaptive_tree(const AdaptiveTreeOptions&) { ran("run_adaptive_tree"); }
int run_soak(const SoakOptions&) { ran("run_soak"); }
}  // namespace meshsync

int sc_main(int, char**) { ran("sc_main"); }

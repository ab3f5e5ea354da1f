// meshsync: barrier, tree, traffic, multicast, broadcast, soak and sweep experiments on
// the cycle-accurate mesh (docs/cli.md). The program is the meshsync_app library.
#include <systemc>  // declares sc_main with the C linkage libsystemc calls it by

#include "program.hpp"

// The program's entry: libsystemc's main() calls sc_main and exits with its result.
int sc_main(int argc, char* argv[]) { return meshsync::run_program(argc, argv); }

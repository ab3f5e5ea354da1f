// The fuzz targets parse the command line and never run a subcommand: the runs
// (sw/app/cli_run.cpp and what it calls) are not linked, which keeps the simulator out
// of this build. The options' headers still include SystemC's, whose version check
// links libsystemc, and libsystemc calls sc_main: here it only says that it ran.
#include <cstdio>
#include <cstdlib>

#include <systemc>  // declares sc_main with C linkage

int sc_main(int, char**) {
  std::fprintf(stderr, "fuzz: sc_main ran; the fuzz targets must only parse\n");
  std::abort();
}

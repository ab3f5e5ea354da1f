#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

// The runner is a SystemC program like meshsync: libsystemc's main() calls sc_main.
// Each simulated machine starts a fresh SystemC context (sw/runtime/machine.cpp), so one
// test process can run many simulations.

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

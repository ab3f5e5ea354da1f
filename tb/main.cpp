#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

// Each simulated machine starts a fresh SystemC context (sw/runtime/machine.cpp), so one
// test process can run many simulations.

int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

// meshsync: barrier, tree, traffic, multicast-plan and sweep experiments on the
// cycle-accurate mesh. The options live in cli.cpp; here, the exit codes.
#include <iostream>
#include <string>
#include <vector>

#include "../runtime/machine.hpp"
#include "cli.hpp"

using namespace meshsync;

namespace {

int fail(const std::string& what, int code) {
  std::cerr << "meshsync: " << what << "\n";
  return code;
}

}  // namespace

// The program's entry: libsystemc's main() calls sc_main and exits with its result.
int sc_main(int argc, char* argv[]) {
  CommandLine cli;
  try {
    cli.parse(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const CLI::CallForHelp& e) {
    return cli.app().exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.app().exit(e);
  } catch (const CLI::ParseError& e) {
    // Every kind of bad input exits 2, whichever layer noticed it.
    return fail(std::string("error: ") + e.what(), 2);
  }

  try {
    return cli.run();
  } catch (const ConfigError& e) {
    return fail(std::string("error: ") + e.what(), 2);
  } catch (const SimulationError& e) {
    return fail(std::string("simulation failed: ") + e.what(), 3);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), 4);
  }
}

// The two ways a run fails, which the program tells apart by exit code (docs/cli.md):
// bad input, and a simulation that could not finish. Plain C++, so that whatever only
// parses input (the CLI, the sweep, the fuzz targets) can name both without SystemC.
#pragma once

#include <stdexcept>

namespace meshsync {

// Thrown for any impossible or malformed parameter; the message is the one line a user
// sees.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A simulation that could not finish: deadlock, or processes left waiting.
struct SimulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace meshsync

// The whole `meshsync` program as a call: parse the arguments, run the subcommand, and
// turn what went wrong into one line on stderr and the exit code (docs/cli.md): 2 bad
// input, 3 a failed simulation, 4 an internal error.
#pragma once

namespace meshsync {

int run_program(int argc, char* argv[]);

}  // namespace meshsync

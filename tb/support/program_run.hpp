// Running the `meshsync` program as a user does (a shell command with a timeout, its
// stdout and stderr captured), and the checks the command-line tests share: bad input
// is one error line and exit 2, good input prints JSON.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace program_run {

namespace fs = std::filesystem;
using nlohmann::json;

struct Result {
  int exit_code = -1;  // -1: did not exit normally
  std::string out, err;
  bool timed_out = false;
};

// `s` quoted for the shell.
std::string quote(const std::string& s);
// A directory of the test process's own, removed when it ends.
fs::path scratch_dir();
std::string slurp(const fs::path& p);
// Writes `text` to scratch_dir() / name.
fs::path write_file(const std::string& name, const std::string& text);
std::vector<std::string> lines(const std::string& s);
// stderr without the warning ASan prints when a simulation throws across libsystemc's
// coroutine stacks.
std::string without_asan_stack_warning(const std::string& err);
// Runs meshsync with `args`, 60 s at most. `env` is prepended to the command, `launcher`
// (mpirun ...) to the program.
Result run(const std::vector<std::string>& args, const std::string& env = "", const std::string& launcher = "");
std::string describe(const std::vector<std::string>& args, const Result& r);
// Checks that the run is refused with one `meshsync: error:` line and exit 2, no crash;
// returns the line.
std::string expect_one_error_line(const std::vector<std::string>& args);
// `args` followed by `extra`.
std::vector<std::string> plus(std::vector<std::string> args, const std::vector<std::string>& extra);
// The one error line names what was wrong: the option or the config key.
void expect_error_naming(const std::vector<std::string>& args, const std::string& what);
// Runs and parses stdout as JSON, requiring exit 0.
json run_json(const std::vector<std::string>& args);

}  // namespace program_run

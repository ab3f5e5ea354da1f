// `--config FILE.yaml` (sw/app/yaml_config.cpp) through the real command line, parsed
// but never run. Input: one byte choosing the subcommand, then the file's text.
//
// Invariants: bad input is CLI::ParseError or ConfigError, never another exception, a
// crash, a leak or UB. A file that parses means the same as its
// options on the command line: the same options given there as --name=value parse too
// and leave every option holding the same values (docs/cli.md: "Values are checked as
// on the command line").
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "cli_session.hpp"
#include "sw/app/yaml_config.hpp"

using namespace meshsync;

namespace {

// The file --config reads: one per fuzzing process.
const std::string& config_path() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/meshsync-fuzz-" + std::to_string(getpid()) + ".yaml";
  }();
  static const bool cleanup = std::atexit([] { std::remove(path.c_str()); }) == 0;
  (void)cleanup;
  return path;
}

// The file's options as command-line arguments --name=value, read by the reader that
// --config uses (the subcommand is the one `cli` chose).
std::vector<std::string> as_arguments(const std::string& sub, CommandLine& cli) {
  std::ifstream in(config_path(), std::ios::binary);
  std::vector<std::string> args{sub};
  for (const CLI::ConfigItem& item : YamlConfig(&cli.app()).from_config(in))
    for (const std::string& v : item.inputs) args.push_back("--" + item.name + "=" + v);
  return args;
}

std::string describe(const fuzz::Settings& s) {
  std::string out;
  for (const auto& [name, values] : s) {
    out += name + ":";
    for (const std::string& v : values) out += " '" + v + "'";
    out += "; ";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string& sub = fuzz::subcommands()[data[0] % fuzz::subcommands().size()];
  {
    std::ofstream f(config_path(), std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  CommandLine from_file;
  if (!fuzz::parse(from_file, {sub, "--config", config_path()})) return 0;
  fuzz::Settings set = fuzz::settings(*fuzz::chosen(from_file));

  const std::vector<std::string> args = as_arguments(sub, from_file);
  CommandLine from_args;
  MESHSYNC_FUZZ_CHECK(fuzz::parse(from_args, args), "the config parses, its options do not: " + describe(set));
  fuzz::Settings again = fuzz::settings(*fuzz::chosen(from_args));
  MESHSYNC_FUZZ_CHECK(again == set, "file: " + describe(set) + " command line: " + describe(again));
  return 0;
}

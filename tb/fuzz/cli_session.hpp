// The `meshsync` command line parsed as the program parses it, without running anything:
// the fuzz targets' parse-only entry point (CommandLine::parse, never CommandLine::run).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "sw/app/cli.hpp"

namespace meshsync::fuzz {

// The subcommands, for inputs that choose one by a byte.
inline const std::vector<std::string>& subcommands() {
  static const std::vector<std::string> names{"barrier", "multicast", "tree", "traffic",
                                              "multicast-plan", "bcast", "adaptive-tree", "soak"};
  return names;
}

// What one parse set: option name -> the values it holds (options set nowhere left out).
using Settings = std::map<std::string, std::vector<std::string>>;

// Parses `args` (after the program name). Bad input is CLI::ParseError (the program's
// exit 2); ConfigError may come from an option's callback. Anything else escaping is a
// finding. (Messages may quote newlines from the input; the program prints them escaped
// on one line, tb/system/test_cli.cpp.)
inline bool parse(CommandLine& cli, const std::vector<std::string>& args) {
  try {
    cli.parse(args);
    return true;
  } catch (const CLI::ParseError&) {
  } catch (const ConfigError&) {
  }
  return false;
}

// The subcommand a successful parse chose and the options it set there.
inline const CLI::App* chosen(CommandLine& cli) {
  const auto subs = cli.app().get_subcommands();
  MESHSYNC_FUZZ_CHECK(subs.size() == 1, "a parse succeeded without one subcommand");
  return subs.front();
}

inline Settings settings(const CLI::App& sub) {
  Settings s;
  for (const CLI::Option* o : sub.get_options())
    if (o->count() > 0 && !o->get_lnames().empty()) s[o->get_lnames().front()] = o->results();
  return s;
}

// The value an option holds after the parse ("" when it is unset), for the parsers that
// the subcommands run on it later.
inline std::string value(const CLI::App& sub, const std::string& name) {
  const CLI::Option* o = sub.get_option_no_throw(name);
  if (o == nullptr) return "";
  if (o->count() > 0) return o->results().back();
  return o->get_default_str();
}

}  // namespace meshsync::fuzz

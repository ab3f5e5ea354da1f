#include "program.hpp"

#include <iostream>
#include <string>
#include <vector>

#include "../../model/core/errors.hpp"
#include "cli.hpp"

namespace meshsync {

namespace {

// Bad-input messages quote what the user wrote, which may hold newlines or other
// control characters (a YAML key "a\nb"): escaped, so that the error stays one line.
std::string one_line(const std::string& s) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
    } else {
      static const char hex[] = "0123456789abcdef";
      out += c == '\n' ? std::string("\\n") : std::string("\\x") + hex[u >> 4] + hex[u & 15];
    }
  }
  return out;
}

int fail(const std::string& what, int code) {
  std::cerr << "meshsync: " << what << "\n";
  return code;
}

}  // namespace

int run_program(int argc, char* argv[]) {
  CommandLine cli;
  try {
    cli.parse(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const CLI::CallForHelp& e) {
    return cli.app().exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.app().exit(e);
  } catch (const CLI::ParseError& e) {
    // Every kind of bad input exits 2, whichever layer noticed it.
    return fail("error: " + one_line(e.what()), 2);
  }

  try {
    return cli.run();
  } catch (const ConfigError& e) {
    return fail("error: " + one_line(e.what()), 2);
  } catch (const SimulationError& e) {
    return fail(std::string("simulation failed: ") + e.what(), 3);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), 4);
  }
}

}  // namespace meshsync

#include "program.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "../../model/core/errors.hpp"
#include "../../model/core/output_files.hpp"
#include "cli.hpp"
#include "run_output.hpp"

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

// What the program printed must have reached its destination: a full disk or a closed
// pipe behind stdout is an error, not a result.
int finish_stdout(int code) {
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout)
    return fail(std::string("error: cannot write the standard output: ") + std::strerror(errno), 2);
  return code;
}

// A failed simulation threw across libsystemc's coroutine stacks, where AddressSanitizer
// cannot follow the unwinding ("ASan is ignoring requested __asan_handle_no_return"): it
// leaves the frames the simulation used poisoned, and the next call that reuses that
// stack trips on them as a false "unknown-crash". The stack below this frame is unused
// again here, so its shadow is cleared. Nothing in a build without ASan.
void forget_simulation_stack() {
#if defined(__SANITIZE_ADDRESS__)
  char here = 0;
  constexpr std::uintptr_t kBelow = 256 * 1024;
  __asan_unpoison_memory_region(reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(&here) - kBelow), kBelow);
#endif
}

// A run's files take their names only when it has succeeded, or when its simulation
// failed (the waveform shows why); after bad input they are removed (output_files).
int finish_files(int code) {
  const std::string failure = output_files::commit_all();
  return failure.empty() ? code : fail("error: " + one_line(failure), 2);
}

int abandon_files(int code) {
  output_files::abandon_all();
  return code;
}

}  // namespace

int run_program(int argc, char* argv[]) {
  // Refused before anything runs: with stdout closed, the first file opened would take
  // its descriptor and receive the printed results.
  if (fcntl(STDOUT_FILENO, F_GETFD) == -1) return fail("error: cannot write the standard output: it is closed", 2);
  CommandLine cli;
  cli.app().set_version_flag("--version", version_text(), "print the commit and the libraries' versions and exit");
  try {
    cli.parse(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const CLI::CallForHelp& e) {
    return cli.app().exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.app().exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.app().exit(e);
  } catch (const CLI::ParseError& e) {
    // Every kind of bad input exits 2, whichever layer noticed it.
    return fail("error: " + one_line(e.what()), 2);
  }

  try {
    const int code = cli.run();
    return finish_stdout(finish_files(code));
  } catch (const ConfigError& e) {
    return abandon_files(fail("error: " + one_line(e.what()), 2));
  } catch (const SimulationError& e) {
    forget_simulation_stack();
    const int code = finish_files(fail(std::string("simulation failed: ") + e.what(), 3));
    return finish_stdout(code);
  } catch (const std::exception& e) {
    return abandon_files(fail(std::string("internal error: ") + e.what(), 4));
  }
}

}  // namespace meshsync

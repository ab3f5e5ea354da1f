#include "program.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <systemc>

#include "../../model/core/errors.hpp"
#include "../../model/core/output_files.hpp"
#include "cli.hpp"
#include "run_output.hpp"

namespace meshsync {

namespace {

// How many bytes of `s` from `i` on form one well-formed UTF-8 character, or 0.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xbf;  // the second byte's range (no overlong forms, no surrogates)
  if (lead >= 0xc2 && lead <= 0xdf) n = 2;
  else if (lead >= 0xe0 && lead <= 0xef) n = 3, low = lead == 0xe0 ? 0xa0 : 0x80, high = lead == 0xed ? 0x9f : 0xbf;
  else if (lead >= 0xf0 && lead <= 0xf4) n = 4, low = lead == 0xf0 ? 0x90 : 0x80, high = lead == 0xf4 ? 0x8f : 0xbf;
  if (n == 0 || i + n > s.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = i + 2; k < i + n; ++k)
    if (byte(k) < 0x80 || byte(k) > 0xbf) return 0;
  return n;
}

// Bad-input messages quote what the user wrote, which may hold newlines, other control
// characters (a YAML key "a\nb") or bytes that are no UTF-8 (a file in Latin-1): escaped,
// so that the error stays one line a terminal or a JSON log takes as text.
std::string one_line(const std::string& s) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u >= 0x20 && u < 0x7f) {
      out += s[i++];
    } else if (const std::size_t n = u >= 0x80 ? utf8_length(s, i) : 0; n > 0) {
      out.append(s, i, n);
      i += n;
    } else {
      out += u == '\n' ? std::string("\\n") : std::string("\\x") + hex[u >> 4] + hex[u & 15];
      ++i;
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

namespace {

// Out of memory: written without allocating, since the allocator just failed. Exit 2, as
// the memory check's refusal before a run (docs/cli.md).
int out_of_memory() {
  static const char kLine[] =
      "meshsync: error: out of memory: the run needs more than this process may allocate (ulimit -v, the cgroup's "
      "memory.max, the machine's memory); make it smaller\n";
  ssize_t ignored = write(STDERR_FILENO, kLine, sizeof kLine - 1);
  (void)ignored;
  output_files::abandon_all();
  return 2;
}

// An exception escaping a SystemC process reaches sc_start as an sc_report, "uncaught
// exception" with the original's what(): a bad_alloc inside the simulation is still one.
bool is_bad_alloc(const sc_core::sc_report& r) {
  return r.get_msg() != nullptr && std::strstr(r.get_msg(), "bad_alloc") != nullptr;
}

int run_parsed(CommandLine& cli) {
  try {
    const int code = cli.run();
    return finish_stdout(finish_files(code));
  } catch (const ConfigError& e) {
    return abandon_files(fail("error: " + one_line(e.what()), 2));
  } catch (const SimulationError& e) {
    forget_stale_stack_poison();  // the catch ran on the frames the simulation used
    const int code = finish_files(fail(std::string("simulation failed: ") + e.what(), 3));
    return finish_stdout(code);
  } catch (const sc_core::sc_report& e) {
    if (is_bad_alloc(e)) return out_of_memory();
    return abandon_files(fail(std::string("internal error: ") + one_line(e.get_msg()), 4));
  }
}

}  // namespace

int run_program(int argc, char* argv[]) {
  output_files::handle_signals();
  // Refused before anything runs: with stdout closed, the first file opened would take
  // its descriptor and receive the printed results.
  if (fcntl(STDOUT_FILENO, F_GETFD) == -1) return fail("error: cannot write the standard output: it is closed", 2);
  // Nothing escapes to libsystemc's main(), which would print it on stdout (inside the
  // JSON a tool reads) and exit 1.
  try {
    CommandLine cli;
    cli.app().set_version_flag("--version", version_text(), "print the commit and the libraries' versions and exit");
    try {
      cli.parse(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const CLI::CallForHelp& e) {
      return finish_stdout(cli.app().exit(e));
    } catch (const CLI::CallForAllHelp& e) {
      return finish_stdout(cli.app().exit(e));
    } catch (const CLI::CallForVersion& e) {
      return finish_stdout(cli.app().exit(e));
    } catch (const CLI::ParseError& e) {
      // Every kind of bad input exits 2, whichever layer noticed it.
      return fail("error: " + one_line(e.what()), 2);
    }
    return run_parsed(cli);
  } catch (const std::bad_alloc&) {
    return out_of_memory();
  } catch (const std::exception& e) {
    return abandon_files(fail(std::string("internal error: ") + one_line(e.what()), 4));
  }
}

}  // namespace meshsync

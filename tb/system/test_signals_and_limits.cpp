// Signals and resource limits, as a user's shell or a batch scheduler sets them
// (docs/reliability.md, "Hostile input and lost output"): the program is started here
// with every signal at its default action and nothing blocked, whatever the test runner
// inherited, so that nothing the tests do hides what a user would see.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "support/program_run.hpp"

#ifndef MESHSYNC_BIN
#error "MESHSYNC_BIN must name the meshsync executable"
#endif

using namespace program_run;

namespace {

struct Limits {
  rlim_t file_size = RLIM_INFINITY;      // RLIMIT_FSIZE, bytes (ulimit -f counts KiB)
  rlim_t address_space = RLIM_INFINITY;  // RLIMIT_AS, bytes (ulimit -v counts KiB)
};

struct Started {
  pid_t pid = -1;
  fs::path out, err;
};

struct Ended {
  int exit_code = -1;  // -1: ended by a signal, or not at all
  int signal = 0;      // the signal that ended it
  bool timed_out = false;
  std::string out, err;
};

// Starts meshsync in `dir` with `args`: default signal actions, an empty signal mask, the
// limits given; stdout and stderr to files.
Started start(const std::vector<std::string>& args, const fs::path& dir, Limits limits = {}) {
  static int counter = 0;
  Started s;
  s.out = scratch_dir() / ("started-out" + std::to_string(++counter));
  s.err = scratch_dir() / ("started-err" + std::to_string(counter));
  std::vector<std::string> argv_text{MESHSYNC_BIN};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  s.pid = fork();
  REQUIRE(s.pid >= 0);
  if (s.pid == 0) {
    for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int out = open(s.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(s.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || dup2(in, 0) < 0) _exit(127);
    if (chdir(dir.c_str()) != 0) _exit(127);
    const rlimit fsize{limits.file_size, limits.file_size}, as{limits.address_space, limits.address_space};
    if (setrlimit(RLIMIT_FSIZE, &fsize) != 0 || setrlimit(RLIMIT_AS, &as) != 0) _exit(127);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return s;
}

Ended finish(const Started& s, double seconds = 60) {
  Ended e;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (waitpid(s.pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      e.timed_out = true;
      kill(s.pid, SIGKILL);
      waitpid(s.pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(status)) e.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
  e.out = slurp(s.out);
  e.err = without_asan_stack_warning(slurp(s.err));
  return e;
}

Ended run_in(const std::vector<std::string>& args, const fs::path& dir, Limits limits = {}) {
  return finish(start(args, dir, limits));
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = scratch_dir() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

void expect_one_line(const Ended& e, const std::string& start, const std::string& what) {
  INFO("exit " << e.exit_code << ", signal " << e.signal << ", stderr: " << e.err);
  REQUIRE(lines(e.err).size() == 1);
  CHECK_THAT(e.err, Catch::StartsWith(start) && Catch::Contains(what));
}

}  // namespace

TEST_CASE("limits: a file-size limit fails the write it stops, with one line, and leaves no file",
          "[cli][errors][output][signals]") {
  // 16 KiB, as `ulimit -f 16`: the kernel would end the process with SIGXFSZ.
  const Limits small_files{16 * 1024, RLIM_INFINITY};
  // fstapi writes an FST through memory maps: past the limit that is a bus error.
  for (const auto& [name, reason] : {std::pair<std::string, std::string>{"w.vcd", "File too large"}, {"w.fst", "ulimit -f"}}) {
    INFO(name);
    const fs::path dir = fresh_dir("fsize-" + name);
    const Ended e = run_in({"traffic", "--mesh", "8x8", "--rate", "0.2", "--cycles", "3000", "--trace", name}, dir,
                           small_files);
    CHECK(e.signal == 0);
    CHECK(e.exit_code == 2);
    expect_one_line(e, "meshsync: error: cannot write '" + name + "'", reason);
    CHECK(names_in(dir).empty());
  }
  SECTION("a sweep: a point's output past the limit, and the point's own words for it") {
    // 1000 bytes: no point's JSON (3 KB) fits, the sweep's line on its own stderr (a file
    // here, under the same limit) does. A point's stderr, were it a file on a full disk,
    // would lose the reason; it comes through a pipe.
    const fs::path dir = fresh_dir("fsize-sweep");
    const fs::path spec = write_file("fsize-sweep.yaml", "command: tree\nparameters:\n  mesh: [4x4, 5x5]\nseeds: 2\n");
    const Ended e = run_in({"sweep", spec.string(), "--workers", "1", "--output", (dir / "rows").string()}, dir,
                           Limits{1000, RLIM_INFINITY});
    CHECK(e.signal == 0);
    CHECK(e.exit_code == 2);
    expect_one_line(e, "meshsync: error: sweep point 0", "cannot write the standard output: File too large");
  }
}

TEST_CASE("signals: SIGINT, SIGTERM and SIGHUP end a traced run, remove what it was writing, and say so",
          "[cli][signals]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"t.fst", {"traffic", "--mesh", "8x8", "--rate", "0.1", "--cycles", "100000000", "--trace", "t.fst"}},
      {"s.vcd", {"soak", "--mesh", "8x8", "--cycles", "100000000", "--trace", "s.vcd"}},
  };
  for (const auto& [output, args] : runs) {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      const std::string name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
      INFO(args.front() << " with " << output << ", " << name);
      const fs::path dir = fresh_dir("signal-" + args.front() + "-" + name);
      const Started s = start(args, dir);
      // Until the waveform's temporary has grown: the run is simulating.
      const fs::path partial = dir / (output + ".partial-" + std::to_string(s.pid));
      for (int i = 0; i < 1000; ++i) {
        std::error_code ec;
        if (fs::file_size(partial, ec) > 0 && !ec) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      kill(s.pid, sig);
      const Ended e = finish(s);
      CHECK_FALSE(e.timed_out);
      // Ended by the signal, so that the shell reports 128 + N and a loop around it stops.
      CHECK(e.signal == sig);
      expect_one_line(e, "meshsync: interrupted by " + name, "removed");
      const std::vector<std::string> left = names_in(dir);
      CHECK(left.empty());
    }
  }
}

TEST_CASE("limits: the address-space limit is part of the memory check, running out of memory is one line",
          "[cli][errors][resources]") {
#if defined(__SANITIZE_ADDRESS__)
  WARN("not under AddressSanitizer, which reserves terabytes of address space: no run starts under ulimit -v");
#else
  const fs::path dir = fresh_dir("address-space");
  // As `ulimit -v 500000`: refused before the first cycle, naming the limit.
  const Limits half_gigabyte{RLIM_INFINITY, 500000ull * 1024};
  const Ended barrier = run_in({"barrier", "--mesh", "1024x1024"}, dir, half_gigabyte);
  CHECK(barrier.exit_code == 2);
  expect_one_line(barrier, "meshsync: error:", "ulimit -v");
  const Ended traffic = run_in({"traffic", "--mesh", "512x512", "--cycles", "100", "--json"}, dir, half_gigabyte);
  CHECK(traffic.exit_code == 2);
  expect_one_line(traffic, "meshsync: error:", "ulimit -v");
  CHECK(traffic.out.empty());
  // Told to run anyway, it runs out of memory: one line on stderr, nothing on stdout
  // (where SystemC would have printed its report, inside the JSON), exit 2.
  const Ended anyway = run_in({"traffic", "--mesh", "512x512", "--cycles", "100", "--json", "--no-memory-check"}, dir,
                              half_gigabyte);
  CHECK(anyway.exit_code == 2);
  expect_one_line(anyway, "meshsync: error: out of memory", "ulimit -v");
  CHECK(anyway.out.empty());
#endif
}

// Running the `meshsync` program as a user does, for the tests of its command line.
#include "program_run.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#ifndef MESHSYNC_BIN
#error "MESHSYNC_BIN must name the meshsync executable"
#endif

namespace program_run {

namespace {

// Removes the scratch directory when the test program ends.
struct ScratchCleanup {
  std::string dir;
  ~ScratchCleanup() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
  }
};
ScratchCleanup cleanup;

}  // namespace

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

fs::path scratch_dir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("meshsync_cli_" + std::to_string(::getpid()));
    fs::create_directories(d);
    cleanup.dir = d.string();
    return d;
  }();
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path p = scratch_dir() / name;
  std::ofstream(p) << text;
  return p;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream in(s);
  std::string l;
  while (std::getline(in, l)) v.push_back(l);
  return v;
}

// Under -fsanitize=address a simulation that throws across libsystemc's coroutine stacks
// makes ASan print a three-line warning before meshsync's own line ("ignoring requested
// __asan_handle_no_return ... False positive error reports may follow ... For details
// see ..."): ASan cannot follow QuickThreads' stack switches. It is not ours to test, so
// it is taken out; any real sanitizer report stays and fails the checks below.
std::string without_asan_stack_warning(const std::string& err) {
  std::string kept;
  int skip = 0;
  for (const std::string& l : lines(err)) {
    if (l.find("ASan is ignoring requested __asan_handle_no_return") != std::string::npos) skip = 3;
    if (skip > 0) {
      --skip;
      continue;
    }
    kept += l + "\n";
  }
  return kept;
}

// Runs meshsync with `args`, 60 s at most. `env` is prepended to the command, `launcher`
// (mpirun ...) to the program.
Result run(const std::vector<std::string>& args, const std::string& env, const std::string& launcher) {
  static std::atomic<int> counter{0};
  const int k = ++counter;
  const fs::path out = scratch_dir() / ("out" + std::to_string(k));
  const fs::path err = scratch_dir() / ("err" + std::to_string(k));
  std::string cmd = env + " timeout -k 5 60 " + launcher + " " + quote(MESHSYNC_BIN);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " >" + quote(out.string()) + " 2>" + quote(err.string()) + " </dev/null";
  const int status = std::system(cmd.c_str());
  Result r;
  if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.timed_out = r.exit_code == 124 || r.exit_code == 137;
  r.out = slurp(out);
  r.err = without_asan_stack_warning(slurp(err));
  return r;
}


std::string describe(const std::vector<std::string>& args, const Result& r) {
  std::string a;
  for (const auto& x : args) a += " " + quote(x);
  return "meshsync" + a + "\n  exit " + std::to_string(r.exit_code) + "\n  stderr: " + r.err +
         "\n  stdout: " + r.out.substr(0, 400);
}

// Returns the error line.
std::string expect_one_error_line(const std::vector<std::string>& args) {
  const Result r = run(args);
  INFO(describe(args, r));
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code < 124);  // not a signal or a timeout (128+n, 124, 137)
  CHECK(r.exit_code == 2);   // every kind of bad input exits 2 (sw/app/main.cpp)
  const auto ls = lines(r.err);
  REQUIRE(ls.size() == 1);
  CHECK_THAT(ls[0], Catch::StartsWith("meshsync: error:"));
  CHECK(ls[0].size() > std::string("meshsync: error: ").size());
  for (const char* crash : {"Sanitizer", "runtime error", "terminate called", "Segmentation",
                            "Aborted", "core dumped", "Floating point"}) {
    CHECK_THAT(r.err, !Catch::Contains(crash));
    CHECK_THAT(r.out, !Catch::Contains(crash));
  }
  return ls[0];
}

// `args` followed by `extra`.
std::vector<std::string> plus(std::vector<std::string> args, const std::vector<std::string>& extra) {
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The one error line names what was wrong: the option or the config key.
void expect_error_naming(const std::vector<std::string>& args, const std::string& what) {
  CHECK_THAT(expect_one_error_line(args), Catch::Contains(what));
}

json run_json(const std::vector<std::string>& args) {
  const Result r = run(args);
  INFO(describe(args, r));
  REQUIRE(r.exit_code == 0);
  json j;
  REQUIRE_NOTHROW(j = json::parse(r.out));
  return j;
}

}  // namespace program_run

// Hostile input and lost output (docs/reliability.md, "Hostile input and lost output"):
// one test per class. Nothing is lost with exit 0, nothing crashes or hangs, nothing is
// misread silently.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "model/core/random.hpp"
#include "support/program_run.hpp"

#ifndef MESHSYNC_BIN
#error "MESHSYNC_BIN must name the meshsync executable"
#endif

using namespace program_run;

namespace {

// Runs `script` with bash, `$MS` standing for the program; stderr captured, stdout as the
// script redirects it. 60 s at most.
Result shell(const std::string& script) {
  static int counter = 0;
  const fs::path err = scratch_dir() / ("shell-err" + std::to_string(++counter));
  const std::string cmd = "MS=" + quote(MESHSYNC_BIN) + " timeout -k 5 60 bash -c " + quote(script) + " 2>" +
                          quote(err.string()) + " </dev/null";
  const int status = std::system(cmd.c_str());
  Result r;
  if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.timed_out = r.exit_code == 124 || r.exit_code == 137;
  r.err = without_asan_stack_warning(slurp(err));
  return r;
}

void expect_refused_naming(const Result& r, const std::string& what) {
  INFO("exit " << r.exit_code << ", stderr: " << r.err);
  CHECK(r.exit_code == 2);
  REQUIRE(lines(r.err).size() == 1);
  CHECK_THAT(r.err, Catch::StartsWith("meshsync: error:") && Catch::Contains(what));
}

// Nothing under `dir` is named like `stem` or like its temporary (output_files).
void expect_no_file_like(const fs::path& dir, const std::string& stem) {
  for (const auto& e : fs::directory_iterator(dir)) {
    INFO(e.path());
    CHECK(e.path().filename().string().rfind(stem, 0) != 0);
  }
}

const std::vector<std::string> kSmallBarrier = {"barrier", "--mesh", "4x4", "--members", "all", "--json"};

}  // namespace

TEST_CASE("hostile: results that cannot be written are an error, and no file is left as if complete",
          "[cli][errors][output]") {
  const std::string barrier = "$MS barrier --mesh 4x4 --members all --ts 100";
  SECTION("JSON on a full device, on a closed stdout") {
    expect_refused_naming(shell(barrier + " --json >/dev/full"), "standard output");
    expect_refused_naming(shell(barrier + " --json >&-"), "standard output");
  }
  // A waveform on a full disk: tb/system/test_signals_and_limits.cpp, where a file-size
  // limit stands in for it with SIGXFSZ at its default action, as a user's shell has it.
  SECTION("a device is not replaced by a waveform") {
    expect_refused_naming(shell(barrier + " --trace /dev/full >/dev/null"), "not a regular file");
    CHECK(fs::is_character_file("/dev/full"));
  }
  SECTION("an unwritable place, before anything runs") {
    const fs::path missing = scratch_dir() / "no-such-dir" / "t.fst";
    expect_refused_naming(shell(barrier + " --trace " + quote(missing.string()) + " >/dev/null"), missing.string());
  }
  SECTION("a refused run leaves no trace file behind") {
    const fs::path dir = scratch_dir() / "refused";
    fs::create_directories(dir);
    expect_refused_naming(shell("cd " + quote(dir.string()) + " && $MS barrier --mesh 4x4 --members 9,9 --trace t.fst"),
                          "9,9");
    expect_no_file_like(dir, "t.");
  }
  SECTION("a complete waveform takes its name; no temporary stays") {
    const fs::path dir = scratch_dir() / "complete";
    fs::create_directories(dir);
    const Result r = shell("cd " + quote(dir.string()) + " && " + barrier + " --trace t.vcd >/dev/null");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(fs::file_size(dir / "t.vcd") > 0);
    for (const auto& e : fs::directory_iterator(dir))
      CHECK(e.path().filename().string().find(".partial-") == std::string::npos);
  }
}

TEST_CASE("hostile: integers are decimal and within their documented range, reals are finite",
          "[cli][errors][numbers]") {
  // A leading zero is decimal, not octal.
  CHECK(run_json(plus(kSmallBarrier, {"--ts", "010"}))["timing"]["ts"] == 10);
  // Whole numbers in decimal notation are read exactly; nothing else is.
  CHECK(run_json(plus(kSmallBarrier, {"--ts", "1e3"}))["timing"]["ts"] == 1000);
  CHECK(run_json(plus(kSmallBarrier, {"--ts", "2.5e2"}))["timing"]["ts"] == 250);
  CHECK_THAT(expect_one_error_line(plus(kSmallBarrier, {"--ts", "2.5"})), Catch::Contains("not a whole number"));
  expect_error_naming(plus(kSmallBarrier, {"--ts", "0x10"}), "--ts");
  expect_error_naming(plus(kSmallBarrier, {"--ts", "12abc"}), "--ts");
  expect_error_naming(plus(kSmallBarrier, {"--ts", "1e"}), "--ts");
  // The documented maxima, exactly: 2^63-1 runs, 2^63 and beyond 2^64 do not.
  CHECK(run_json(plus(kSmallBarrier, {"--seed", "9223372036854775807"}))["seed"] == 9223372036854775807ull);
  expect_error_naming(plus(kSmallBarrier, {"--seed", "9223372036854775808"}), "--seed");
  expect_error_naming(plus(kSmallBarrier, {"--seed", "99999999999999999999999"}), "--seed");
  expect_error_naming(plus(kSmallBarrier, {"--deadlock-cycles", "18446744073709551617"}), "--deadlock-cycles");
  expect_error_naming(plus(kSmallBarrier, {"--tp", "1000001"}), "--tp");
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity"}) {
    expect_error_naming({"multicast-plan", "--mesh", "8x8", "--threshold", bad}, "--threshold");
    expect_error_naming({"bcast", "--mesh", "4x4", "--loss", bad}, "--loss");
    expect_error_naming({"traffic", "--mesh", "4x4", "--rate", bad}, "--rate");
    expect_error_naming({"soak", "--mesh", "4x4", "--multicast-rate", bad}, "--multicast-rate");
  }
}

TEST_CASE("hostile: a rate too small for any run is refused, and no gap wraps around", "[cli][errors][numbers]") {
  expect_error_naming({"traffic", "--mesh", "4x4", "--rate", "1e-30"}, "rate");
  expect_error_naming({"barrier", "--mesh", "4x4", "--load", "uniform", "--load-rate", "1e-30"}, "rate");
  expect_error_naming({"soak", "--mesh", "4x4", "--rate", "1e-30"}, "rate");
  expect_error_naming({"soak", "--mesh", "4x4", "--multicast-rate", "1e-30"}, "--multicast-rate");
  expect_error_naming({"multicast", "--mesh", "4x4", "--rate", "1e-30", "--dests", "random:3"}, "--rate");
  // The draw itself saturates: far gaps land at "never", not back at an early cycle.
  meshsync::Random rng(1);
  constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < 100; ++i) {
    CHECK(rng.next_event(kNever - 3, 1e-12) == kNever);
    CHECK(rng.next_event(1000, 1e-300) == kNever);
  }
}

TEST_CASE("hostile: what would be ignored is refused: empty values, list items, YAML documents",
          "[cli][errors]") {
  expect_error_naming(plus(kSmallBarrier, {"--config", ""}), "--config");
  expect_error_naming(plus(kSmallBarrier, {"--trace", ""}), "--trace");
  expect_error_naming({"multicast-plan", "--mesh", "8x8", "--algo", "dp,,qg"}, "--algo");
  expect_error_naming({"multicast-plan", "--mesh", "8x8", "--algo=dp,"}, "--algo");
  expect_error_naming({"barrier", "--mesh", "4x4", "--scheme", ",btm"}, "--scheme");
  const fs::path two = write_file("two-documents.yaml", "mesh: 4x4\n---\nmesh: 8x8\n");
  expect_error_naming({"barrier", "--config", two.string()}, "documents");
  const fs::path item = write_file("empty-item.yaml", "algo: dp,,qg\n");
  expect_error_naming({"multicast-plan", "--config", item.string()}, "empty item");
}

TEST_CASE("hostile: a sweep spec's problems are bad input (exit 2), each named", "[cli][errors][sweep]") {
  const auto refused = [](const std::string& name, const std::string& spec, const std::string& what) {
    INFO(spec);
    const fs::path p = write_file(name, spec);
    expect_error_naming({"sweep", p.string(), "--output", (scratch_dir() / name).string()}, what);
  };
  const std::string base = "command: tree\nparameters:\n  mesh: [4x4, 8x8]\n";
  refused("key-list.yaml", "[a, b]: 1\ncommand: tree\n", "keys");
  refused("key-map.yaml", "command: tree\nparameters:\n  {a: 1}: 2\n", "keys");
  refused("twice.yaml", base + "command: barrier\n", "'command' is given twice");
  refused("command-list.yaml", "command: [tree, barrier]\n", "'command'");
  refused("seeds-twice.yaml", base + "seeds: [3, 3]\n", "'seeds' lists 3 twice");
  refused("values-twice.yaml", "command: tree\nparameters:\n  mesh: [4x4, 4x4]\n", "twice");
  refused("huge.yaml", base + "seeds: 100000000\n", "--max-points");
  refused("product.yaml",
          std::string("command: tree\nparameters:\n  mesh: [4x4, 5x5, 6x6, 7x7]\n") +
              "  members: [all, 'random:2', 'random:3']\nseeds: 30000\n",
          "--max-points");
  refused("one-trace.yaml", "command: barrier\nparameters:\n  mesh: [4x4, 8x8]\n  trace: t.fst\n", "--trace t.fst");
  // A results file that holds something else than a sweep's rows.
  const fs::path spec = write_file("foreign.yaml", base);
  std::ofstream(scratch_dir() / "foreign-out.jsonl") << "[1, 2]\n";
  expect_error_naming({"sweep", spec.string(), "--output", (scratch_dir() / "foreign-out").string()}, "line 1");
  // An output where nothing can be written.
  expect_error_naming({"sweep", spec.string(), "--output", "/proc/meshsync-cannot/out"}, "cannot write");
}

TEST_CASE("hostile: a sweep ends its points when it is interrupted or killed, and a point's timeout holds",
          "[cli][sweep]") {
  // Points long enough to be caught running: 16x16 traffic for many cycles, told apart
  // from any other process by an unusual cycle count.
  const std::string marker = "87654321";
  const fs::path spec = write_file("long.yaml", "command: traffic\nparameters:\n  mesh: 16x16\n  rate: 0.05\n  cycles: " +
                                                    marker + "\nseeds: 4\n");
  const std::string prefix = (scratch_dir() / "long").string();
  // "8765432[1]" finds the points but not the shell that runs pgrep with it.
  const std::string find_points = "pgrep -f -- '--cycles " + marker.substr(0, 7) + "[" + marker.substr(7) + "]'";
  const auto points_running = [&] { return std::system((find_points + " >/dev/null").c_str()) == 0; };
  const auto wait_for = [](const auto& condition, bool expected) {
    for (int i = 0; i < 200 && condition() != expected; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return condition() == expected;
  };
  SECTION("killed (SIGKILL): the points end too") {
    const Result r = shell("$MS sweep " + quote(spec.string()) + " --workers 2 --output " + quote(prefix) +
                           " >/dev/null & pid=$!; for i in $(seq 100); do " + find_points +
                           " >/dev/null && break; sleep 0.05; done; kill -KILL $pid; wait $pid; exit 0");
    INFO(r.err);
    CHECK(wait_for(points_running, false));
  }
  SECTION("interrupted (SIGINT): the points end, and it says how to resume") {
    const Result r = shell("$MS sweep " + quote(spec.string()) + " --workers 2 --output " + quote(prefix) +
                           " >/dev/null & pid=$!; for i in $(seq 100); do " + find_points +
                           " >/dev/null && break; sleep 0.05; done; kill -INT $pid; wait $pid");
    INFO(r.err);
    CHECK(r.exit_code == 130);
    CHECK_THAT(r.err, Catch::Contains("interrupted") && Catch::Contains("resume"));
    CHECK(wait_for(points_running, false));
  }
  SECTION("a point that runs longer than --point-timeout is ended and named") {
    const Result r = run({"sweep", spec.string(), "--workers", "1", "--point-timeout", "0.5", "--output", prefix});
    INFO(r.err);
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("point 0") && Catch::Contains("--point-timeout"));
    CHECK(wait_for(points_running, false));
  }
}

TEST_CASE("hostile: resource limits are checked before a run, and traffic beyond saturation stops draining",
          "[cli][errors][resources]") {
  // What the machine has, lowered for the test (a container's limit reads the same way).
  const Result r = run({"traffic", "--mesh", "1024x1024", "--cycles", "10"}, "MESHSYNC_MEMORY_LIMIT=100000000");
  expect_refused_naming(r, "--no-memory-check");
  // Far beyond saturation, run to the window's end on purpose: the drain is cut at its
  // bound, said in the output, exit 0. (Accepted 0.32 of 0.9 offered: the last measured
  // packet would wait some 21,000 cycles.)
  const json j = run_json({"traffic", "--mesh", "8x8", "--rate", "0.9", "--flits", "4", "--warmup", "0",
                           "--cycles", "12000", "--no-saturation-stop", "--json"});
  CHECK(j["saturated"] == false);
  CHECK(j["drain_cut"] == true);
  CHECK(j["undelivered"].get<std::uint64_t>() > 0);
  CHECK(j["simulated_cycles"].get<std::uint64_t>() <= 1 + 12000 + 12000 + 2);
  // By default such a run stops as soon as the backlog shows saturation, as BookSim2's do.
  const json stopped = run_json({"traffic", "--mesh", "8x8", "--rate", "0.9", "--flits", "4", "--warmup", "0",
                                 "--cycles", "12000", "--json"});
  CHECK(stopped["saturated"] == true);
  CHECK(stopped["simulated_cycles"].get<std::uint64_t>() < 12000);
  CHECK(stopped["accepted_flits_per_node_cycle"].get<double>() < 0.5);
  // Below saturation the drain completes as before.
  const json calm = run_json({"traffic", "--mesh", "8x8", "--rate", "0.05", "--cycles", "1000", "--json"});
  CHECK(calm["drain_cut"] == false);
  CHECK(calm["saturated"] == false);
}

TEST_CASE("hostile: every input file must be a regular file of bounded size, a FIFO or a device is refused at once",
          "[cli][errors][inputs]") {
  const fs::path fifo = scratch_dir() / "input.fifo";
  fs::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  const fs::path dir = scratch_dir() / "inputs";
  fs::create_directories(dir);
  // Opening a FIFO blocks until a writer comes: each of these would have hung.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"barrier", "--config", fifo.string()},
        std::vector<std::string>{"sweep", fifo.string(), "--output", (dir / "fifo").string()},
        std::vector<std::string>{"adaptive-tree", "--distances", fifo.string()}}) {
    const Result r = run(args);
    INFO(describe(args, r));
    CHECK_FALSE(r.timed_out);
    expect_refused_naming(r, "FIFO");
  }
  // A device is read without end; a directory is no file.
  expect_refused_naming(run({"barrier", "--config", "/dev/zero"}), "character device");
  expect_refused_naming(run({"sweep", "/dev/zero"}), "character device");
  expect_refused_naming(run({"adaptive-tree", "--distances", "/dev/zero"}), "character device");
  expect_refused_naming(run({"barrier", "--config", dir.string()}), "directory");
  // A file far larger than any config: refused by its size before YAML reads it (a 50 MB
  // file of unknown keys took 23 s and 3.5 GB to reach its first key).
  const fs::path large = scratch_dir() / "large.yaml";
  {
    std::ofstream out(large);
    for (int i = 0; i < 300000; ++i) out << "unknown_key_" << i << ": 1\n";
  }
  REQUIRE(fs::file_size(large) > (4u << 20));
  expect_refused_naming(run({"barrier", "--config", large.string()}), "MiB");
  expect_refused_naming(run({"sweep", large.string(), "--output", (dir / "large").string()}), "MiB");
  // Both in one run: no output left behind.
  expect_no_file_like(dir, "fifo");
  expect_no_file_like(dir, "large");
}

TEST_CASE("hostile: error lines say what the input was, and nothing more", "[cli][errors]") {
  // A real quoted as given, not rounded to six places (which hid why it was refused) nor
  // written out in 300 digits.
  CHECK_THAT(expect_one_error_line({"traffic", "--mesh", "4x4", "--rate", "1.0000001"}), Catch::Contains("1.0000001"));
  const std::string huge = expect_one_error_line({"traffic", "--mesh", "4x4", "--rate", "1e300"});
  CHECK_THAT(huge, Catch::Contains("1e+300"));
  CHECK(huge.size() < 200);
  CHECK_THAT(expect_one_error_line({"soak", "--mesh", "4x4", "--rate", "-1e-7"}), Catch::Contains("-1e-07"));
  // Nesting beyond what the YAML reader takes, named as such (yaml-cpp says "bad file").
  std::string deep;
  for (int i = 0; i < 1000; ++i) deep += "[";
  const fs::path nested = write_file("nested.yaml", "mesh: " + deep + "\n");
  CHECK_THAT(expect_one_error_line({"barrier", "--config", nested.string()}), Catch::Contains("nested more than"));
  const fs::path nested_spec = write_file("nested-spec.yaml", "command: " + deep + "\n");
  CHECK_THAT(expect_one_error_line({"sweep", nested_spec.string(), "--output", (scratch_dir() / "nested").string()}),
             Catch::Contains("nested more than"));
  // Bytes that are no UTF-8 (Latin-1 'é', a lone continuation byte) are escaped; UTF-8 stays.
  const fs::path latin1 = write_file("latin1.yaml", "caf\xe9: 1\n\x80x: 2\n");
  const std::string line = expect_one_error_line({"barrier", "--config", latin1.string()});
  CHECK_THAT(line, Catch::Contains("caf\\xe9"));
  const fs::path utf8 = write_file("utf8.yaml", "caf\xc3\xa9: 1\n");
  CHECK_THAT(expect_one_error_line({"barrier", "--config", utf8.string()}), Catch::Contains("caf\xc3\xa9"));
  // --help and --version to a full stdout are failures, as any other output.
  for (const std::string flag : {"--help", "--version"}) {
    INFO(flag);
    expect_refused_naming(shell("$MS " + flag + " >/dev/full"), "standard output");
    expect_refused_naming(shell("$MS barrier " + flag + " >/dev/full"), "standard output");
  }
  // A sweep point that fails says why in the point's own words, even on a full disk
  // (where the point's stderr, were it a file, would be empty).
  const fs::path spec = write_file("full-disk.yaml", "command: barrier\nparameters:\n  mesh: 4x4\n  trace: /dev/full\n");
  CHECK_THAT(expect_one_error_line({"sweep", spec.string(), "--output", (scratch_dir() / "full-disk").string()}),
             Catch::Contains("point 0") && Catch::Contains("not a regular file"));
}

// A run that did not finish, or finished without measuring something, gives no number
// for it (docs/reliability.md, "Hostile input and lost output"; docs/cli.md, "Exit codes"
// and "JSON output"): a simulation that cannot finish ends with exit 3 and where the
// traffic is stuck, and a mean, percentile or rate over no samples is null in the JSON
// and "-" in the table, never 0, which a sweep's CSV would take for a measurement. Each
// case runs the program as a user does.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "support/program_run.hpp"

using namespace program_run;

namespace {

// The multicast load of issue 36: QG on e-cube jams at once, and the network stops
// draining once generation stops. The short watchdog keeps the run well under a second.
const std::vector<std::string> kDeadlockingLoad{"multicast", "--mesh", "8x8", "--qg-routing", "e-cube", "--algo", "qg",
                                                "--rate", "0.01", "--dests", "random:10", "--deadlock-cycles", "2000"};

void expect_deadlock_report(const std::vector<std::string>& args, const Result& r, const std::string& first) {
  INFO(describe(args, r));
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::StartsWith("meshsync: simulation failed: " + first));
  // Where it is stuck, one buffer a line, as the network's own deadlock report says it.
  CHECK_THAT(r.err, Catch::Contains("\n  router (") && Catch::Contains("waiting for output"));
  CHECK(r.out.empty());  // no table, no JSON: nothing that reads as a result
}

// The keys of `o` that are null.
std::vector<std::string> nulls(const json& o) {
  std::vector<std::string> out;
  for (const auto& [k, v] : o.items())
    if (v.is_null()) out.push_back(k);
  return out;
}

}  // namespace

TEST_CASE("unfinished: a multicast load that deadlocks fails with exit 3 and where, with no latency",
          "[cli][errors][multicast][deadlock]") {
  for (const bool as_json : {true, false}) {
    const std::vector<std::string> args = as_json ? plus(kDeadlockingLoad, {"--json"}) : kDeadlockingLoad;
    expect_deadlock_report(args, run(args), "deadlock of --algo qg: ");
  }
  // One-port DP, the consumption-channel deadlock (docs/deadlock.md): the first algorithm
  // that deadlocks fails the run, whatever comes after it.
  const std::vector<std::string> one_port{"multicast", "--mesh", "8x8", "--ni", "one-port", "--algo", "dp,cp",
                                          "--rate", "0.002", "--dests", "random:10", "--deadlock-cycles", "2000", "--json"};
  expect_deadlock_report(one_port, run(one_port), "deadlock of --algo dp: ");
  // Beside unicast load the network never drains by itself: the watchdog names it.
  const std::vector<std::string> loaded =
      plus(kDeadlockingLoad, {"--load", "uniform", "--load-rate", "0.01", "--load-warmup", "100", "--json"});
  expect_deadlock_report(loaded, run(loaded), "deadlock: no flit moved");
}

TEST_CASE("unfinished: what a run did not measure is null in its JSON and '-' in its table, never 0",
          "[cli][json][multicast][traffic][bcast]") {
  SECTION("multicast load saturated before any measured multicast finished") {
    const std::vector<std::string> args{"multicast", "--mesh", "8x8", "--rate", "0.5", "--algo", "dp",
                                        "--dests", "random:10"};
    const json j = run_json(plus(args, {"--json"}));
    const json& a = j.at("algorithms").at(0);
    CHECK(a.at("saturated") == true);
    CHECK(a.at("measured") == 0);
    CHECK(nulls(a) == std::vector<std::string>{"hops", "latency_avg_cycles", "latency_max_cycles", "latency_p99_cycles",
                                               "latency_stderr_cycles", "startups",
                                               "throughput_multicasts_per_node_cycle", "worms", "zero_load_cycles"});
    const Result t = run(args);
    INFO(describe(args, t));
    REQUIRE(t.exit_code == 0);
    const std::vector<std::string> rows = lines(t.out);
    REQUIRE(rows.size() >= 3);
    CHECK_THAT(rows[2], Catch::StartsWith("  dp            -        -      -      -          -"));
    CHECK_THAT(t.out, !Catch::Contains("0.00 "));
  }
  SECTION("traffic whose window saw no packet") {
    const std::vector<std::string> args{"traffic", "--mesh", "4x4", "--rate", "0.0001", "--cycles", "10"};
    const json j = run_json(plus(args, {"--json"}));
    CHECK(j.at("packets_measured") == 0);
    CHECK(nulls(j) == std::vector<std::string>{"hops_avg", "latency_avg_cycles", "latency_max_cycles",
                                               "latency_p99_cycles"});
    CHECK(j.at("accepted_flits_per_node_cycle") == 0.0);  // a count over the window: none came
    const Result t = run(args);
    INFO(describe(args, t));
    CHECK(t.exit_code == 0);
    CHECK_THAT(t.out, Catch::Contains("latency   avg -   p99 -   max - cycles (0 packets measured)"));
    CHECK_THAT(t.out, Catch::Contains("hops      avg -\n"));
  }
  SECTION("a broadcast with the root alone, and the mean of --repeat over it") {
    const json j = run_json({"bcast", "--mesh", "4x4", "--comm", "0,0", "--repeat", "2", "--json"});
    const json& a = j.at("algorithms").at(0);
    const std::vector<std::string> unmeasured{"last_rank_cycles", "max_deviation_from_median_ratio", "median_cycles",
                                              "rank1_cycles"};
    CHECK(nulls(a) == unmeasured);
    CHECK(nulls(a.at("runs").at(1)) == unmeasured);
    CHECK(a.at("latency_cycles") == 0);  // the root has the message: measured, and nothing to wait for
  }
}

TEST_CASE("unfinished: a sweep keeps a failed point as a row when asked, and an unmeasured value is an empty cell",
          "[cli][sweep][deadlock]") {
  // Point 0 deadlocks (exit 3), point 1 saturates at once and measures no latency (null).
  const fs::path spec = write_file("unfinished-sweep.yaml",
                                   "command: multicast\nparameters:\n  mesh: 8x8\n  qg-routing: e-cube\n"
                                   "  dests: random:10\n  deadlock-cycles: 2000\n  rate: [0.01, 0.5]\n  algo: [qg, dp]\n"
                                   "seeds: 1\n");
  const std::string prefix = (scratch_dir() / "unfinished-sweep").string();
  // Without --keep-failed the first failure ends the sweep, naming the point.
  const Result stopped = run({"sweep", spec.string(), "--workers", "1", "--output", prefix});
  INFO(stopped.err);
  CHECK(stopped.exit_code == 3);
  CHECK_THAT(stopped.err, Catch::Contains("point 0") && Catch::Contains("deadlock of --algo qg"));
  fs::remove(prefix + ".jsonl");
  const Result kept = run({"sweep", spec.string(), "--workers", "1", "--keep-failed", "--output", prefix});
  INFO(kept.err);
  REQUIRE(kept.exit_code == 0);
  CHECK_THAT(kept.err, Catch::Contains("2 failed"));
  const std::vector<std::string> csv = lines(slurp(prefix + ".csv"));
  REQUIRE(csv.size() == 5);
  const auto column = [&](const std::string& name) {
    std::vector<std::string> header;
    std::stringstream in(csv[0]);
    for (std::string c; std::getline(in, c, ',');) header.push_back(c);
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return static_cast<std::size_t>(it - header.begin());
  };
  const auto cell = [&](std::size_t row, std::size_t col) {
    std::vector<std::string> cells;
    std::stringstream in(csv[row + 1]);
    for (std::string c; std::getline(in, c, ',');) cells.push_back(c);
    return col < cells.size() ? cells[col] : std::string();
  };
  const std::size_t code = column("failure.exit_code"), latency = column("algorithms.0.latency_avg_cycles");
  CHECK(cell(0, code) == "3");
  CHECK(cell(2, code) == "3");
  CHECK(cell(1, code).empty());
  CHECK(cell(3, code).empty());
  // The saturated DP point measured no latency: an empty cell, not "null", not 0.
  CHECK(cell(3, latency).empty());
}

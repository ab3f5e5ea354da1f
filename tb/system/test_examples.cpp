// Every example in docs/examples runs as documented: a config file through its
// subcommand (the file's name), a sweep spec through `meshsync sweep`.
#include <catch2/catch.hpp>

#include <algorithm>

#include "support/program_run.hpp"

#ifndef MESHSYNC_SOURCE_DIR
#error "MESHSYNC_SOURCE_DIR must name the source tree"
#endif

using namespace program_run;

TEST_CASE("examples: every config and sweep in docs/examples runs", "[cli][examples]") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(MESHSYNC_SOURCE_DIR) / "docs" / "examples"))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 11);  // a config per subcommand but sweep, and three sweeps
  for (const fs::path& f : files) {
    const std::string name = f.stem().string();
    INFO(f);
    if (name.rfind("sweep-", 0) == 0) {
      const fs::path out = scratch_dir() / ("example-" + name);
      const Result r = run({"sweep", f.string(), "--output", out.string()});
      INFO(r.err);
      CHECK(r.exit_code == 0);
      CHECK(lines(slurp(out.string() + ".jsonl")).size() > 1);
    } else {
      const json j = run_json({name, "--config", f.string(), "--json"});
      // Every subcommand's JSON says what produced it and in which schema.
      CHECK(j.at("command") == name);
      CHECK(j.at("schema_version") == 2);
    }
  }
}

TEST_CASE("examples: --print-config writes a file the subcommand runs as it is", "[cli][examples][config]") {
  // Values given beside --print-config are the file's: the file alone runs as they do.
  for (const char* sub : {"barrier", "tree", "traffic", "multicast-plan"}) {
    INFO(sub);
    const Result printed = run({sub, "--mesh", "5x3", "--seed", "9", "--print-config"});
    REQUIRE(printed.exit_code == 0);
    CHECK_THAT(printed.out, Catch::Contains("\n# ") && Catch::Contains("mesh: 5x3") && Catch::Contains("seed: 9"));
    const fs::path file = write_file(std::string("printed-") + sub + ".yaml", printed.out);
    const json from_file = run_json({sub, "--config", file.string(), "--json"});
    const json given = run_json({sub, "--mesh", "5x3", "--seed", "9", "--json"});
    CHECK(from_file.at("mesh") == json::array({5, 3}));
    if (given.contains("seed")) CHECK(from_file.at("seed") == 9);
    CHECK(from_file.at("command") == given.at("command"));
  }
}

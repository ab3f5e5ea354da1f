// `meshsync sweep SPEC.yaml`: the product of parameter lists x seeds, each point one
// `meshsync <command> ... --json` child process, on all cores (docs/sweep.md). Points are
// saved as they finish (PREFIX.jsonl), so an interrupted sweep resumes where it stopped;
// the final PREFIX.jsonl and PREFIX.csv are in point order, whatever the number of workers.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "../../model/core/errors.hpp"
#include "cli.hpp"
#include "ranks.hpp"
#include "run_output.hpp"
#include "sweep_command.hpp"

extern char** environ;

namespace meshsync {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct SweepSpec {
  std::string command;
  std::vector<std::pair<std::string, std::vector<std::string>>> parameters;  // in spec order
  std::vector<std::uint64_t> seeds{1};
  std::string output;
};

struct Point {
  std::size_t index = 0;
  json parameters;  // option name -> value, as typed
  std::uint64_t seed = 0;
  std::vector<std::string> args;  // for `meshsync`, without the program name
};

[[noreturn]] void bad_spec(const std::string& what) { throw ConfigError("sweep spec: " + what); }

std::vector<std::string> scalars(const YAML::Node& v, const std::string& key) {
  std::vector<std::string> out;
  if (v.IsScalar()) {
    out.push_back(v.as<std::string>());
  } else if (v.IsSequence()) {
    for (const auto& e : v) {
      if (!e.IsScalar()) bad_spec("'" + key + "' must be a scalar or a list of scalars");
      out.push_back(e.as<std::string>());
    }
    if (out.empty()) bad_spec("'" + key + "' is an empty list");
  } else {
    bad_spec("'" + key + "' must be a scalar or a list of scalars");
  }
  return out;
}

std::uint64_t seed_value(const std::string& text) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size() && v >= 0) return static_cast<std::uint64_t>(v);
  } catch (const std::exception&) {
  }
  bad_spec("'seeds' must be a count or a list of non-negative integers, got '" + text + "'");
}

SweepSpec read_spec(const std::string& path) {
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    bad_spec(path + " is not valid YAML: " + e.msg);
  }
  if (!doc.IsMap()) bad_spec(path + " must be a mapping with command, parameters, seeds, output");
  SweepSpec s;
  s.output = (fs::path(path).parent_path() / fs::path(path).stem()).string();
  for (const auto& kv : doc) {
    const std::string key = kv.first.as<std::string>();
    if (key == "command") {
      s.command = scalars(kv.second, key).front();
    } else if (key == "parameters") {
      if (!kv.second.IsMap()) bad_spec("'parameters' must map option names to values");
      for (const auto& p : kv.second) {
        std::string name = p.first.as<std::string>();
        for (char& ch : name)
          if (ch == '_') ch = '-';
        if (name == "seed") bad_spec("'parameters.seed': list seeds under 'seeds'");
        if (name == "json" || name == "config") bad_spec("'parameters." + name + "' is not a sweep parameter");
        s.parameters.emplace_back(name, scalars(p.second, "parameters." + name));
      }
    } else if (key == "seeds") {
      const std::vector<std::string> v = scalars(kv.second, key);
      s.seeds.clear();
      if (kv.second.IsScalar()) {
        const std::uint64_t n = seed_value(v.front());
        if (n < 1) bad_spec("'seeds' must be at least 1");
        for (std::uint64_t i = 1; i <= n; ++i) s.seeds.push_back(i);
      } else {
        for (const std::string& t : v) s.seeds.push_back(seed_value(t));
      }
    } else if (key == "output") {
      s.output = scalars(kv.second, key).front();
    } else {
      bad_spec("unknown key '" + key + "' (expected command, parameters, seeds, output)");
    }
  }
  if (s.command.empty()) bad_spec("'command' is missing (barrier, traffic, tree, multicast-plan or multicast)");
  if (s.command == "sweep") bad_spec("'command' cannot be sweep");
  try {
    CommandLine().app().get_subcommand(s.command);
  } catch (const CLI::OptionNotFound&) {
    bad_spec("'command' " + s.command + " is not a meshsync subcommand");
  }
  return s;
}

// The product of the parameter lists, seeds innermost; each point checked by the real
// command line, so a bad value is refused before anything runs.
std::vector<Point> points_of(const SweepSpec& s) {
  std::vector<Point> out;
  std::vector<std::size_t> at(s.parameters.size(), 0);
  for (;;) {
    for (std::uint64_t seed : s.seeds) {
      Point p;
      p.index = out.size();
      p.seed = seed;
      p.args = {s.command};
      p.parameters = json::object();
      for (std::size_t k = 0; k < s.parameters.size(); ++k) {
        const auto& [name, values] = s.parameters[k];
        p.parameters[name] = values[at[k]];
        p.args.push_back("--" + name);
        p.args.push_back(values[at[k]]);
      }
      p.args.insert(p.args.end(), {"--seed", std::to_string(seed), "--json"});
      try {
        CommandLine cli;
        cli.parse(p.args);
      } catch (const CLI::ParseError& e) {
        bad_spec(fmt::format("point {} ({}, seed {}): {}", p.index, p.parameters.dump(), seed, e.what()));
      }
      out.push_back(std::move(p));
    }
    std::size_t k = s.parameters.size();
    while (k > 0 && ++at[k - 1] == s.parameters[k - 1].second.size()) at[--k] = 0;
    if (k == 0) return out;
  }
}

// The files finished points are appended to: PREFIX.jsonl, or one per rank under MPI
// (PREFIX.rank-R.jsonl; rank 0 merges them at the end).
fs::path log_of(const std::string& prefix, const Ranks& ranks) {
  return ranks.size() == 1 ? fs::path(prefix + ".jsonl") : fs::path(prefix + ".rank-" + std::to_string(ranks.rank()) + ".jsonl");
}

std::vector<fs::path> logs(const std::string& prefix) {
  std::vector<fs::path> out{prefix + ".jsonl"};
  const fs::path base(prefix);
  const fs::path dir = base.parent_path().empty() ? fs::path(".") : base.parent_path();
  const std::string stem = base.filename().string() + ".rank-";
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(stem, 0) == 0 && e.path().extension() == ".jsonl") out.push_back(e.path());
    }
  return out;
}

// Points already finished (an interrupted or repeated sweep), by index.
std::map<std::size_t, json> finished(const std::string& prefix, const std::vector<Point>& points) {
  std::map<std::size_t, json> done;
  for (const fs::path& file : logs(prefix)) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      json row;
      try {
        row = json::parse(line);
      } catch (const json::exception&) {
        continue;  // a line cut short when the sweep was interrupted
      }
      const std::size_t i = row.value("point", points.size());
      if (i >= points.size() || row["parameters"] != points[i].parameters || row["seed"] != points[i].seed)
        throw ConfigError(file.string() + " holds results of another sweep (point " + std::to_string(i) +
                          " differs): remove it or choose another --output");
      done[i] = row;
    }
  }
  return done;
}

struct Child {
  std::size_t point = 0;
  fs::path out, err;
};

pid_t spawn(const Point& p, const Child& c) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, c.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, c.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args{"meshsync"};
  args.insert(args.end(), p.args.begin(), p.args.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("sweep: cannot start a worker: " + std::string(std::strerror(rc)));
  return pid;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void progress(std::size_t done, std::size_t total, double seconds, std::size_t run_now) {
  if (!isatty(STDERR_FILENO)) return;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * done / std::max<std::size_t>(total, 1));
  const double eta = run_now ? seconds / static_cast<double>(run_now) * static_cast<double>(total - done) : 0;
  fmt::print(stderr, "\rsweep [{}{}] {}/{} points, ETA {:.0f} s ", std::string(filled, '#'),
             std::string(kWidth - filled, '.'), done, total, eta);
  std::fflush(stderr);
}

// One CSV cell: JSON scalars as JSON text, strings unquoted unless they need quotes.
std::string cell(const json& v) {
  std::string t = v.is_string() ? v.get<std::string>() : v.dump();
  if (t.find_first_of(",\"\n") == std::string::npos) return t;
  std::string q = "\"";
  for (char ch : t) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

// Nested results as flat columns: "timing.ts", "schemes.0.latency_cycles".
void flatten(const json& v, const std::string& key, std::vector<std::pair<std::string, json>>& out) {
  if (v.is_object() || (v.is_array() && !v.empty() && v.front().is_object())) {
    std::size_t i = 0;
    for (auto it = v.begin(); it != v.end(); ++it, ++i) {
      const std::string k = v.is_object() ? it.key() : std::to_string(i);
      flatten(*it, key.empty() ? k : key + "." + k, out);
    }
  } else {
    out.emplace_back(key, v);
  }
}

// Columns: point, the parameters in spec order, seed, commit, then the flattened result;
// a result field named like an input column is prefixed "result.".
void write_outputs(const SweepSpec& spec, const std::map<std::size_t, json>& rows) {
  const std::string& prefix = spec.output;
  {
    std::ofstream out(prefix + ".jsonl.tmp");
    for (const auto& [i, row] : rows) out << row.dump() << "\n";
  }
  fs::rename(prefix + ".jsonl.tmp", prefix + ".jsonl");
  std::vector<std::string> columns;
  std::vector<std::map<std::string, json>> table;
  for (const auto& [i, row] : rows) {
    std::vector<std::pair<std::string, json>> flat{{"point", row["point"]}};
    for (const auto& [name, values] : spec.parameters) flat.emplace_back(name, row["parameters"][name]);
    flat.emplace_back("seed", row["seed"]);
    flat.emplace_back("commit", row["commit"]);
    const std::size_t inputs = flat.size();
    flatten(row["result"], "", flat);
    for (std::size_t k = inputs; k < flat.size(); ++k)
      for (std::size_t j = 0; j < inputs; ++j)
        if (flat[k].first == flat[j].first) flat[k].first = "result." + flat[k].first;
    std::map<std::string, json> line;
    for (auto& [k, v] : flat) {
      if (std::find(columns.begin(), columns.end(), k) == columns.end()) columns.push_back(k);
      line.emplace(k, v);
    }
    table.push_back(std::move(line));
  }
  std::ofstream csv(prefix + ".csv");
  for (std::size_t c = 0; c < columns.size(); ++c) csv << (c ? "," : "") << cell(columns[c]);
  csv << "\n";
  for (const auto& line : table) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = line.find(columns[c]);
      csv << (c ? "," : "") << (it == line.end() ? "" : cell(it->second));
    }
    csv << "\n";
  }
}

}  // namespace

namespace {

// Runs `mine` (points of this rank) on `workers` child processes at once, appending each
// finished row to `log` and `rows`. Returns the first failure ("" if none) and its code.
std::pair<std::string, int> run_points(const std::vector<Point>& points, const std::vector<std::size_t>& mine,
                                       std::size_t workers, const fs::path& parts, const fs::path& log_path,
                                       std::map<std::size_t, json>& rows, bool show_progress) {
  const auto t0 = std::chrono::steady_clock::now();
  // A line cut short by an interruption must not swallow the first row appended now.
  const bool cut_short = fs::exists(log_path) && fs::file_size(log_path) > 0 && [&] {
    std::ifstream in(log_path, std::ios::binary);
    in.seekg(-1, std::ios::end);
    return in.get() != '\n';
  }();
  std::ofstream log(log_path, std::ios::app);
  if (cut_short) log << "\n";
  std::map<pid_t, Child> running;
  std::size_t next = 0, run_now = 0;
  std::string failure;
  int failure_code = 0;
  for (;;) {
    while (failure.empty() && running.size() < workers && next < mine.size()) {
      const Point& p = points[mine[next++]];
      Child c{p.index, parts / fmt::format("{}.json", p.index), parts / fmt::format("{}.err", p.index)};
      running.emplace(spawn(p, c), c);
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) throw std::runtime_error("sweep: waitpid failed");
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Child c = it->second;
    running.erase(it);
    const Point& p = points[c.point];
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    json result;
    std::string problem;
    if (code != 0) {
      const std::string err = slurp(c.err);
      problem = err.empty() ? "exit code " + std::to_string(code) : err.substr(0, err.find('\n'));
    } else {
      try {
        result = json::parse(slurp(c.out));
      } catch (const json::exception&) {
        problem = "printed no JSON";
      }
    }
    if (!problem.empty()) {
      // The first failure stops the sweep once the running points are done.
      if (failure.empty()) {
        failure = fmt::format("point {} ({}, seed {}): {}", p.index, p.parameters.dump(), p.seed, problem);
        failure_code = code == 0 ? 4 : code;
      }
      continue;
    }
    json row{{"point", p.index}, {"parameters", p.parameters}, {"seed", p.seed},
             {"commit", source_commit()}, {"result", result}};
    log << row.dump() << "\n" << std::flush;
    rows[p.index] = std::move(row);
    fs::remove(c.out);
    fs::remove(c.err);
    ++run_now;
    if (show_progress) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      progress(rows.size(), points.size(), seconds, run_now);
    }
  }
  if (show_progress && isatty(STDERR_FILENO)) fmt::print(stderr, "\n");
  return {failure, failure_code};
}

struct Prepared {
  SweepSpec spec;
  std::vector<Point> points;
  std::map<std::size_t, json> rows;  // finished by an earlier run
};

// Reads and checks everything before a point runs: the same on every rank.
Prepared prepare(const SweepOptions& o) {
  Prepared p;
  p.spec = read_spec(o.spec);
  if (!o.output.empty()) p.spec.output = o.output;
  p.points = points_of(p.spec);
  p.rows = finished(p.spec.output, p.points);
  return p;
}

int execute(const SweepOptions& o, Prepared prep, const Ranks& ranks) {
  const auto t0 = std::chrono::steady_clock::now();
  const SweepSpec& spec = prep.spec;
  const std::vector<Point>& points = prep.points;
  std::map<std::size_t, json>& rows = prep.rows;
  const std::size_t resumed = rows.size();
  // The points still to run, dealt to the ranks in turn.
  std::vector<std::size_t> mine;
  std::size_t turn = 0;
  for (const Point& p : points)
    if (!rows.count(p.index) && turn++ % static_cast<std::size_t>(ranks.size()) == static_cast<std::size_t>(ranks.rank()))
      mine.push_back(p.index);
  const fs::path parts = spec.output + ".parts";
  fs::create_directories(parts);
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = o.workers > 0 ? static_cast<std::size_t>(o.workers)
                                            : std::max<std::size_t>(1, cores / static_cast<std::size_t>(ranks.local_size()));
  const auto [failure, code] =
      run_points(points, mine, workers, parts, log_of(spec.output, ranks), rows, ranks.size() == 1);
  // Every rank stops with the worst exit code; each failing rank says why.
  const int worst = ranks.max(code);
  if (!failure.empty()) {
    const std::string what = "sweep " + failure + fmt::format(" (finished points kept in {}.jsonl)", spec.output);
    if (code == 2) throw ConfigError(what);
    if (code == 3) throw SimulationError(what);
    throw std::runtime_error(what);
  }
  if (worst != 0) return worst;
  ranks.barrier();  // every rank's rows are in its file
  if (ranks.rank() != 0) return 0;
  rows = finished(spec.output, points);
  write_outputs(spec, rows);
  for (const fs::path& f : logs(spec.output))
    if (f != fs::path(spec.output + ".jsonl")) fs::remove(f);
  fs::remove_all(parts);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print(stderr, "sweep: {} points ({} run, {} from an earlier run{}) -> {}.csv, {}.jsonl in {:.1f} s\n",
             points.size(), rows.size() - resumed, resumed,
             ranks.size() > 1 ? fmt::format(", {} ranks", ranks.size()) : "", spec.output, spec.output, seconds);
  return 0;
}

}  // namespace

int run_sweep(const SweepOptions& o) {
  const Ranks ranks;
  Prepared prep;
  std::exception_ptr refused;
  try {
    prep = prepare(o);
  } catch (const ConfigError&) {
    refused = std::current_exception();
  }
  if (ranks.size() == 1) {
    if (refused) std::rethrow_exception(refused);
    return execute(o, std::move(prep), ranks);
  }
  // Every rank has read the finished points before any rank appends a row: a rank that
  // read another's fresh rows would deal the remaining points differently, and some
  // would run twice and others never. The same collective stops every rank if one
  // refused the spec (each finds the same problem; rank 0 reports it).
  if (ranks.max(refused ? 2 : 0) != 0) {
    if (ranks.rank() != 0) return 2;
    if (refused) std::rethrow_exception(refused);
    throw ConfigError("sweep: another rank refused the sweep (its output files changed while the ranks read them?)");
  }
  // A failing point is reported by its rank (the others return the same exit code); any
  // other error ends the whole launch rather than leave ranks waiting at a barrier.
  try {
    return execute(o, std::move(prep), ranks);
  } catch (const ConfigError&) {
    throw;
  } catch (const SimulationError&) {
    throw;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "meshsync: rank %d: %s\n", ranks.rank(), e.what());
    ranks.abort(4);
  }
}

}  // namespace meshsync

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
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "../runtime/machine.hpp"
#include "cli.hpp"

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
  if (s.command.empty()) bad_spec("'command' is missing (barrier, traffic, tree or multicast-plan)");
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

// Points already in PREFIX.jsonl (an interrupted or repeated sweep), by index.
std::map<std::size_t, json> finished(const fs::path& jsonl, const std::vector<Point>& points) {
  std::map<std::size_t, json> done;
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    json row;
    try {
      row = json::parse(line);
    } catch (const json::exception&) {
      continue;  // a line cut short when the sweep was interrupted
    }
    const std::size_t i = row.value("point", points.size());
    if (i >= points.size() || row["parameters"] != points[i].parameters || row["seed"] != points[i].seed)
      throw ConfigError(jsonl.string() + " holds results of another sweep (point " + std::to_string(i) +
                        " differs): remove it or choose another --output");
    done[i] = row;
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

int run_sweep(const SweepOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  SweepSpec spec = read_spec(o.spec);
  if (!o.output.empty()) spec.output = o.output;
  const std::vector<Point> points = points_of(spec);
  const fs::path jsonl = spec.output + ".jsonl";
  std::map<std::size_t, json> rows = finished(jsonl, points);
  const std::size_t resumed = rows.size();
  const fs::path parts = spec.output + ".parts";
  fs::create_directories(parts);
  std::ofstream log(jsonl, std::ios::app);

  const std::size_t workers =
      o.workers > 0 ? static_cast<std::size_t>(o.workers) : std::max(1u, std::thread::hardware_concurrency());
  std::map<pid_t, Child> running;
  std::size_t next = 0, run_now = 0;
  std::string failure;
  int failure_code = 0;
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  for (;;) {
    while (failure.empty() && running.size() < workers && next < points.size()) {
      const Point& p = points[next++];
      if (rows.count(p.index)) continue;
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
        failure_code = code;
      }
      continue;
    }
    json row{{"point", p.index}, {"parameters", p.parameters}, {"seed", p.seed},
             {"commit", MESHSYNC_COMMIT}, {"result", result}};
    log << row.dump() << "\n" << std::flush;
    rows[p.index] = std::move(row);
    fs::remove(c.out);
    fs::remove(c.err);
    ++run_now;
    progress(rows.size(), points.size(), elapsed(), run_now);
  }
  if (isatty(STDERR_FILENO)) fmt::print(stderr, "\n");
  log.close();
  if (!failure.empty()) {
    const std::string what = "sweep " + failure + fmt::format(" ({} of {} points saved in {})", rows.size(),
                                                             points.size(), jsonl.string());
    if (failure_code == 2) throw ConfigError(what);
    if (failure_code == 3) throw SimulationError(what);
    throw std::runtime_error(what);
  }
  write_outputs(spec, rows);
  fs::remove_all(parts);
  fmt::print(stderr, "sweep: {} points ({} run, {} from {}) -> {}.csv, {}.jsonl in {:.1f} s\n", points.size(),
             run_now, resumed, jsonl.string(), spec.output, spec.output, elapsed());
  return 0;
}

}  // namespace meshsync

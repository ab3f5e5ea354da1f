// `meshsync sweep SPEC.yaml`: the product of parameter lists x seeds, each point one
// `meshsync <command> ... --json` child process, on all cores (docs/sweep.md). Points are
// saved as they finish (PREFIX.jsonl), so an interrupted sweep resumes where it stopped;
// the final PREFIX.jsonl and PREFIX.csv are in point order, whatever the number of workers.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "../../model/core/errors.hpp"
#include "../../model/core/output_files.hpp"
#include "progress_bar.hpp"
#include "ranks.hpp"
#include "run_output.hpp"
#include "sweep_command.hpp"
#include "input_file.hpp"
#include "whole_number.hpp"
#include "yaml_config.hpp"

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

// A key of the spec: a scalar, given once in its mapping (YAML readers disagree on a
// repeated key; yaml-cpp would keep both and the last would win unseen).
std::string key_of(const YAML::Node& k, const std::string& where, std::set<std::string>& seen) {
  if (!k.IsScalar()) bad_spec(where + " keys must be names, not lists or mappings");
  std::string key = k.as<std::string>();
  if (!seen.insert(key).second) bad_spec("'" + key + "' is given twice" + (where == "the spec's" ? "" : " in " + where));
  return key;
}

std::string scalar(const YAML::Node& v, const std::string& key) {
  if (!v.IsScalar()) bad_spec("'" + key + "' must be a single value");
  return v.as<std::string>();
}

// A value or a list of distinct values: a repeated one would run the same point twice.
std::vector<std::string> scalars(const YAML::Node& v, const std::string& key) {
  std::vector<std::string> out;
  if (v.IsScalar()) {
    out.push_back(v.as<std::string>());
  } else if (v.IsSequence()) {
    std::set<std::string> seen;
    for (const auto& e : v) {
      if (!e.IsScalar()) bad_spec("'" + key + "' must be a scalar or a list of scalars");
      out.push_back(e.as<std::string>());
      if (!seen.insert(out.back()).second) bad_spec("'" + key + "' lists " + out.back() + " twice");
    }
    if (out.empty()) bad_spec("'" + key + "' is an empty list");
  } else {
    bad_spec("'" + key + "' must be a scalar or a list of scalars");
  }
  return out;
}

std::uint64_t seed_value(const std::string& text) {
  std::int64_t v = 0;
  if (const std::string why = read_whole_number(text, 0, std::numeric_limits<std::int64_t>::max(), v); !why.empty())
    bad_spec("'seeds' must be a count or a list of seeds (--seed's numbers), got '" + text + "', which " + why);
  return static_cast<std::uint64_t>(v);
}

SweepSpec read_spec(const std::string& path, std::uint64_t max_points, const PointParser& parser) {
  const std::string text = read_input_file(path, "sweep spec", kMaxConfigBytes);
  YAML::Node doc;
  try {
    doc = YAML::Load(text);  // not LoadAll: see yaml_documents
  } catch (const YAML::Exception& e) {
    bad_spec(path + " is not valid YAML: " + yaml_problem(e));
  }
  if (yaml_documents(text) > 1 || !doc.IsMap())
    bad_spec(path + " must be one YAML mapping with command, parameters, seeds, output");
  SweepSpec s;
  s.output = (fs::path(path).parent_path() / fs::path(path).stem()).string();
  std::set<std::string> keys;
  for (const auto& kv : doc) {
    const std::string key = key_of(kv.first, "the spec's", keys);
    if (key == "command") {
      s.command = scalar(kv.second, key);
    } else if (key == "parameters") {
      if (!kv.second.IsMap()) bad_spec("'parameters' must map option names to values");
      std::set<std::string> names;
      for (const auto& p : kv.second) {
        std::string name = key_of(p.first, "'parameters'", names);
        for (char& ch : name)
          if (ch == '_') ch = '-';
        if (name == "seed") bad_spec("'parameters.seed': list seeds under 'seeds'");
        if (name == "json" || name == "config") bad_spec("'parameters." + name + "' is not a sweep parameter");
        for (const auto& [other, values] : s.parameters)
          if (other == name) bad_spec("'parameters' sets --" + name + " twice (as " + name + " and with '_')");
        s.parameters.emplace_back(name, scalars(p.second, "parameters." + name));
      }
    } else if (key == "seeds") {
      s.seeds.clear();
      if (kv.second.IsScalar()) {
        const std::uint64_t n = seed_value(kv.second.as<std::string>());
        if (n < 1) bad_spec("'seeds' must be at least 1");
        if (n > max_points) bad_spec(fmt::format("'seeds' {} is more points than --max-points {}", n, max_points));
        for (std::uint64_t i = 1; i <= n; ++i) s.seeds.push_back(i);
      } else {
        for (const std::string& t : scalars(kv.second, key)) s.seeds.push_back(seed_value(t));
      }
    } else if (key == "output") {
      s.output = scalar(kv.second, key);
      if (s.output.empty()) bad_spec("'output' is empty");
      // Relative to the spec's folder, like the default: the same spec run from
      // elsewhere finds its results.
      if (fs::path(s.output).is_relative()) s.output = (fs::path(path).parent_path() / s.output).string();
    } else {
      bad_spec("unknown key '" + key + "' (expected command, parameters, seeds, output)");
    }
  }
  if (s.command.empty()) bad_spec("'command' is missing (barrier, traffic, tree, multicast-plan or multicast)");
  if (s.command == "sweep") bad_spec("'command' cannot be sweep");
  if (!parser.is_command(s.command)) bad_spec("'command' " + s.command + " is not a meshsync subcommand");
  // The product's size before it is enumerated: a sweep of millions of points would
  // spend its time listing them and write nothing.
  std::uint64_t total = s.seeds.size();
  for (const auto& [name, values] : s.parameters) {
    if (total > max_points / values.size() + 1) total = max_points + 1;
    else total *= values.size();
  }
  if (total > max_points)
    bad_spec(fmt::format("the sweep has more than --max-points {} points (raise it to run them all)", max_points));
  return s;
}

// Options that write a file: two points given the same file would write it at once.
bool writes_a_file(const std::string& option) { return option == "trace"; }

// The product of the parameter lists, seeds innermost; each point checked by the real
// command line, so a bad value is refused before anything runs.
std::vector<Point> points_of(const SweepSpec& s, const PointParser& parser) {
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
      if (const std::string why = parser.refusal(p.args); !why.empty())
        bad_spec(fmt::format("point {} ({}, seed {}): {}", p.index, p.parameters.dump(), seed, why));
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

// What tells a point from the others: its parameters (JSON objects dump their keys in
// order) and its seed.
std::string point_key(const json& parameters, const json& seed) { return parameters.dump() + " seed " + seed.dump(); }

// Points already finished (an interrupted, repeated or extended sweep), by index.
std::map<std::size_t, json> finished(const std::string& prefix, const std::vector<Point>& points) {
  std::map<std::string, std::size_t> by_key;
  for (const Point& p : points) by_key.emplace(point_key(p.parameters, json(p.seed)), p.index);
  std::map<std::size_t, json> done;
  for (const fs::path& file : logs(prefix)) {
    std::ifstream in(file);
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      json row;
      try {
        row = json::parse(line);
      } catch (const json::exception&) {
        continue;  // a line cut short when the sweep was interrupted
      }
      if (!row.is_object() || !row.contains("point") || !row["point"].is_number_unsigned())
        throw ConfigError(fmt::format("{} line {} is not a row of a sweep: remove the file or choose another --output",
                                      file.string(), number));
      // By what the point is, not by its number: a spec that gained values or seeds
      // numbers its points anew and still finds the rows it had.
      const auto it = by_key.find(point_key(row["parameters"], row["seed"]));
      if (it == by_key.end())
        throw ConfigError(fmt::format("{} line {} holds a point this sweep does not have ({}, seed {}): remove it "
                                      "or choose another --output",
                                      file.string(), number, row["parameters"].dump(), row["seed"].dump()));
      row["point"] = it->second;
      done[it->second] = row;
    }
  }
  return done;
}

struct Child {
  std::size_t point = 0;
  fs::path out;
  std::chrono::steady_clock::time_point started;
  // The point's stderr, through a pipe rather than a file: a point that failed because the
  // disk is full could not have written why into a file on that disk.
  int err_pipe = -1;
  std::string err;
};

// Takes what the point wrote to stderr so far (its first 64 KB: the one line, or a
// deadlock report, is at the start); the pipe never fills, so the point never blocks.
void read_stderr(Child& c) {
  constexpr std::size_t kKept = 64 * 1024;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(c.err_pipe, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    c.err.append(buffer, std::min(static_cast<std::size_t>(n), kKept - std::min(kKept, c.err.size())));
  }
}

void close_stderr(Child& c) {
  if (c.err_pipe >= 0) close(c.err_pipe);
  c.err_pipe = -1;
}

// A point's process: in a process group of its own, so that the terminal's Ctrl-C reaches
// only the sweep, which then ends its points itself (and with them anything they
// started); and told to end when the sweep dies, even by SIGKILL, so that no orphan goes
// on writing files a resumed sweep writes too. fork + exec rather than posix_spawn, for
// the death signal; between them only async-signal-safe calls.
pid_t spawn(const Point& p, Child& c) {
  std::vector<std::string> args{"meshsync"};
  args.insert(args.end(), p.args.begin(), p.args.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0)
    throw ConfigError(std::string("sweep: cannot start a point: ") + std::strerror(errno));
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(err_pipe[0]);
    close(err_pipe[1]);
    throw ConfigError(std::string("sweep: cannot start a point: ") + std::strerror(errno));
  }
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);  // the sweep died before the line above
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int out = open(c.out.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (out < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(err_pipe[1], STDERR_FILENO) < 0) _exit(127);
    close(out);
    execve("/proc/self/exe", argv.data(), environ);
    _exit(127);
  }
  setpgid(pid, pid);  // also here: whichever runs first, the group exists before a kill
  close(err_pipe[1]);
  fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
  c.err_pipe = err_pipe[0];
  return pid;
}

// SIGINT, SIGTERM and SIGHUP end a sweep between points: the handler only notes the signal (the
// wait for a point returns early), the loop ends the running points and says how to resume.
volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int sig) { g_interrupted = sig; }

// Ends the running points (their process groups) and reaps them, however the loop is left.
struct RunningPoints {
  std::map<pid_t, Child> children;
  ~RunningPoints() { end_all(); }
  void end_all() {
    for (const auto& [pid, child] : children) kill(-pid, SIGTERM);
    for (auto& [pid, child] : children) {
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      close_stderr(child);
      std::error_code ec;
      fs::remove(child.out, ec);
    }
    children.clear();
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One CSV cell: JSON scalars as JSON text, strings unquoted unless they need quotes; what
// the point did not measure (JSON null) an empty cell, as a spreadsheet reads a gap.
std::string cell(const json& v) {
  if (v.is_null()) return "";
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
  // Both files take their names when the program ends, after every write was checked
  // (output_files): until then the log of finished rows stays as it is, to resume from.
  {
    std::ofstream out(output_files::begin(prefix + ".jsonl"));
    for (const auto& [i, row] : rows) out << row.dump() << "\n";
    output_files::close_checked(out, prefix + ".jsonl");
  }
  std::vector<std::string> columns;
  std::vector<std::map<std::string, json>> table;
  for (const auto& [i, row] : rows) {
    std::vector<std::pair<std::string, json>> flat{{"point", row["point"]}};
    for (const auto& [name, values] : spec.parameters) flat.emplace_back(name, row["parameters"][name]);
    flat.emplace_back("seed", row["seed"]);
    flat.emplace_back("commit", row["commit"]);
    const std::size_t inputs = flat.size();
    if (row.contains("failure")) flatten(row["failure"], "failure", flat);
    flatten(row.value("result", json::object()), "", flat);
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
  std::ofstream csv(output_files::begin(prefix + ".csv"));
  for (std::size_t c = 0; c < columns.size(); ++c) csv << (c ? "," : "") << cell(columns[c]);
  csv << "\n";
  for (const auto& line : table) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = line.find(columns[c]);
      csv << (c ? "," : "") << (it == line.end() ? "" : cell(it->second));
    }
    csv << "\n";
  }
  output_files::close_checked(csv, prefix + ".csv");
}

}  // namespace

namespace {

struct Outcome {
  std::string failure;  // the first failing point ("" if none)
  int code = 0;         // its exit code
  int signal = 0;       // SIGINT, SIGTERM or SIGHUP when the sweep was interrupted
};

// Installs the interrupt handler for the loop's lifetime. Without SA_RESTART, so that
// a blocking waitpid returns at the signal.
struct InterruptHandler {
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old[std::size(kSignals)] {};
  InterruptHandler() {
    g_interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &sa, &old[i]);
  }
  ~InterruptHandler() {
    for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &old[i], nullptr);
  }
};

// Runs `mine` (points of this rank) on `workers` child processes at once, appending each
// finished row to the log and to `rows`: a row is counted only once it is on disk.
Outcome run_points(const std::vector<Point>& points, const std::vector<std::size_t>& mine, std::size_t workers,
                   const fs::path& parts, const fs::path& log_path, std::map<std::size_t, json>& rows,
                   bool show_progress, double timeout, bool keep_failed) {
  // On a terminal, from the start; the estimate is this run's pace (resumed points apart).
  ProgressBar bar("sweep", "points", show_progress && progress_wanted(ProgressMode::Auto, false), 0);
  bar.set_total(points.size());
  const std::size_t done_before = rows.size();
  // A line cut short by an interruption must not swallow the first row appended now.
  const bool cut_short = fs::exists(log_path) && fs::file_size(log_path) > 0 && [&] {
    std::ifstream in(log_path, std::ios::binary);
    in.seekg(-1, std::ios::end);
    return in.get() != '\n';
  }();
  std::ofstream log(log_path, std::ios::app);
  const auto check_log = [&] {
    if (!log) throw ConfigError(fmt::format("cannot write '{}': {}", log_path.string(), std::strerror(errno)));
  };
  check_log();
  if (cut_short) log << "\n" << std::flush;
  check_log();
  const InterruptHandler interrupts;
  RunningPoints running;
  std::set<pid_t> timed_out;
  // Part files carry the sweep's pid: a point of an earlier, killed sweep cannot write
  // the file a point of this one reads.
  const std::string tag = std::to_string(getpid());
  std::size_t next = 0;
  Outcome outcome;
  for (;;) {
    while (outcome.failure.empty() && !g_interrupted && running.children.size() < workers && next < mine.size()) {
      const Point& p = points[mine[next++]];
      Child c{p.index, parts / fmt::format("{}.{}.json", p.index, tag), std::chrono::steady_clock::now(), -1, {}};
      const pid_t pid = spawn(p, c);
      running.children.emplace(pid, std::move(c));
    }
    if (g_interrupted) {
      outcome.signal = g_interrupted;
      running.end_all();
      break;
    }
    if (running.children.empty()) break;
    int status = 0;
    pid_t pid = 0;
    // Polled: to end a point that runs longer than the timeout, and to move the bar.
    pid = waitpid(-1, &status, WNOHANG);
    if (pid == 0) {
      for (auto& [child_pid, child] : running.children) read_stderr(child);
      const auto now = std::chrono::steady_clock::now();
      if (timeout > 0)
        for (const auto& [child_pid, child] : running.children)
          if (std::chrono::duration<double>(now - child.started).count() > timeout && timed_out.insert(child_pid).second)
            kill(-child_pid, SIGKILL);
      bar.update(rows.size(), done_before);
      usleep(20000);
      continue;
    }
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("sweep: waitpid failed: ") + std::strerror(errno));
    }
    const auto it = running.children.find(pid);
    if (it == running.children.end()) continue;
    Child c = std::move(it->second);
    running.children.erase(it);
    read_stderr(c);  // what is left; a process the point started may hold the pipe open
    close_stderr(c);
    const Point& p = points[c.point];
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    json result;
    std::string problem;
    int problem_code = code;
    if (timed_out.count(pid)) {
      problem = fmt::format("ran longer than --point-timeout {} s and was ended", timeout);
      problem_code = 3;
    } else if (code != 0) {
      // The program's own line ("meshsync: ..."), not what a runtime printed before it (a
      // sanitizer's warning); else the first line.
      const std::size_t own = c.err.find("\nmeshsync: ");
      const std::size_t from = c.err.rfind("meshsync: ", 0) == 0 || own == std::string::npos ? 0 : own + 1;
      problem = c.err.empty() ? "exit code " + std::to_string(code) : c.err.substr(from, c.err.find('\n', from) - from);
    } else {
      try {
        result = json::parse(slurp(c.out));
      } catch (const json::exception&) {
        problem = "printed no JSON";
        problem_code = 4;
      }
    }
    std::error_code ec;
    fs::remove(c.out, ec);
    json row{{"point", p.index}, {"parameters", p.parameters}, {"seed", p.seed}, {"commit", source_commit()}};
    if (problem.empty()) {
      row["result"] = std::move(result);
    } else if (keep_failed && (problem_code == 2 || problem_code == 3)) {
      // A point whose run failed as runs do (bad input for this combination, exit 2; a
      // simulation that could not finish, exit 3) is, with --keep-failed, a row like any
      // other: where a network deadlocks is a result of the sweep.
      const std::string prefix = "meshsync: ";
      if (problem.rfind(prefix, 0) == 0) problem.erase(0, prefix.size());
      row["failure"] = {{"exit_code", problem_code}, {"message", problem}};
    } else {
      // The first failure stops the sweep once the running points are done.
      if (outcome.failure.empty()) {
        outcome.failure = fmt::format("point {} ({}, seed {}): {}", p.index, p.parameters.dump(), p.seed, problem);
        outcome.code = problem_code;
      }
      continue;
    }
    log << row.dump() << "\n" << std::flush;
    check_log();
    rows[p.index] = std::move(row);
    bar.update(rows.size(), done_before);
    bar.draw_now();
  }
  return outcome;
}

struct Prepared {
  SweepSpec spec;
  std::vector<Point> points;
  std::map<std::size_t, json> rows;  // finished by an earlier run
};

// Reads and checks everything before a point runs: the same on every rank.
Prepared prepare(const SweepOptions& o, const PointParser& parser) {
  Prepared p;
  p.spec = read_spec(o.spec, static_cast<std::uint64_t>(o.max_points), parser);
  if (!o.output.empty()) p.spec.output = o.output;
  p.points = points_of(p.spec, parser);
  std::map<std::string, std::size_t> files;  // a file an option writes -> the first point writing it
  for (const Point& point : p.points)
    for (const auto& [name, value] : point.parameters.items())
      if (writes_a_file(name)) {
        const auto [first, fresh] = files.emplace(value.get<std::string>(), point.index);
        if (!fresh)
          bad_spec(fmt::format("points {} and {} would both write --{} {}: give each point its own file",
                               first->second, point.index, name, value.get<std::string>()));
      }
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
  std::error_code ec;
  fs::create_directories(parts, ec);
  if (ec) throw ConfigError("cannot write '" + parts.string() + "': " + ec.message());
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = o.workers > 0 ? static_cast<std::size_t>(o.workers)
                                            : std::max<std::size_t>(1, cores / static_cast<std::size_t>(ranks.local_size()));
  const Outcome outcome =
      run_points(points, mine, workers, parts, log_of(spec.output, ranks), rows, ranks.size() == 1, o.point_timeout,
                 o.keep_failed);
  const std::string& failure = outcome.failure;
  const int code = outcome.signal != 0 ? 128 + outcome.signal : outcome.code;
  if (outcome.signal != 0)
    fmt::print(stderr, "meshsync: sweep interrupted ({}): {} of {} points are in {}; run the same command to resume\n",
               output_files::signal_name(outcome.signal), rows.size(), points.size(),
               log_of(spec.output, ranks).string());
  // Every rank stops with the worst exit code; each failing rank says why.
  const int worst = ranks.max(code);
  if (outcome.signal != 0) return code;
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
  const auto failed = std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.second.contains("failure"); });
  fmt::print(stderr, "sweep: {} points ({} run, {} from an earlier run{}{}) -> {}.csv, {}.jsonl in {:.1f} s\n",
             points.size(), rows.size() - resumed, resumed,
             ranks.size() > 1 ? fmt::format(", {} ranks", ranks.size()) : "",
             failed > 0 ? fmt::format("; {} failed, kept as rows with failure.message", failed) : "", spec.output,
             spec.output, seconds);
  return 0;
}

}  // namespace

int run_sweep(const SweepOptions& o, const PointParser& parser) {
  const Ranks ranks;
  Prepared prep;
  std::exception_ptr refused;
  try {
    prep = prepare(o, parser);
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

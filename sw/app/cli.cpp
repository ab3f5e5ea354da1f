#include "cli.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "../collective/member_spec.hpp"
#include "enum_names.hpp"
#include "distance_file.hpp"
#include "input_file.hpp"
#include "whole_number.hpp"
#include "argument_checks.hpp"
#include "yaml_config.hpp"

namespace meshsync {

namespace {

// Integers are read by read_whole_number (decimal, exact, "1e5" is 100000) and checked
// against their range before CLI11 converts them: CLI11 alone would read "010" as octal 8
// and "0x10" as 16, and clamp what lies beyond 64 bits. The text is then rewritten as
// plain digits for the conversion. The bounds are signed so that "-5" is refused with
// the range rather than wrapping around in the conversion to an unsigned field.
CLI::Validator decimal(std::int64_t min, std::int64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        if (text.empty()) return std::string("an empty value");
        std::int64_t v = 0;
        if (const std::string why = read_whole_number(text, min, max, v); !why.empty()) return text + " " + why;
        text = std::to_string(v);
        return {};
      },
      fmt::format("INT in {} to {}", min, max));
}

// A real number within [min, max]; NaN and the infinities are refused (CLI::Range lets
// NaN through: every comparison with it is false).
CLI::Validator real_range(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v)) return text + " is not a finite number";
        if (v < min || v > max) return fmt::format("{} is out of range ({} to {})", text, min, max);
        return {};
      },
      fmt::format("NUMBER in {} to {}", min, max));
}

// A rate or other real that its command's validate() checks for range: here only that
// it is a finite number, so that "nan" and "inf" get one message whatever the command.
const CLI::Validator kFinite = real_range(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max());

// A file name or a list given as '' would otherwise read as the option left out.
const CLI::Validator kNonEmpty([](std::string& text) { return text.empty() ? std::string("an empty value") : std::string(); },
                               "");

// A file the program reads: a regular file of at most `max_bytes` (input_file.hpp), checked
// before CLI11 or the command opens it, since opening a FIFO blocks.
CLI::Validator input_file(std::uint64_t max_bytes) {
  return CLI::Validator(
      [max_bytes](std::string& path) {
        if (path.empty()) return std::string("an empty value");
        const std::string why = input_file_problem(path, max_bytes);
        return why.empty() ? why : "cannot read '" + path + "': " + why;
      },
      "FILE");
}

constexpr std::int64_t kLarge = kParameterLarge;  // 10^8: far more than any run needs
const CLI::Validator kPositive = decimal(1, kLarge);
const CLI::Validator kNonNegative = decimal(0, kLarge);
const CLI::Validator kSeed = decimal(0, std::numeric_limits<std::int64_t>::max());

// parse_mesh's message says what is wrong with the size.
const CLI::Validator kMeshSize(
    [](std::string& text) {
      try {
        parse_mesh(text);
        return std::string{};
      } catch (const ConfigError& e) {
        return std::string(e.what());
      }
    },
    "WxH");

void add_mesh(CLI::App* app, MeshShape& mesh) {
  app->add_option_function<std::string>(
         "--mesh", [&mesh](const std::string& text) { mesh = parse_mesh(text); }, "mesh size")
      ->check(kMeshSize)
      ->default_str(fmt::format("{}x{}", mesh.width, mesh.height));
}

// The default shown in --help is the bound field's.
template <typename T>
CLI::Option* add_number(CLI::App* app, const std::string& name, T& field, const std::string& help,
                        const CLI::Validator& range) {
  return app->add_option(name, field, help)->capture_default_str()->transform(range);
}

// Only the names are accepted (one_of); the Transformer then stores the enumerator. Its
// name-to-number mapping would only confuse --help, so it has no description. transform()
// puts a validator before the others, hence one_of last.
template <typename T, typename E>
CLI::Option* add_names(CLI::App* app, const std::string& name, T& field,
                       const std::map<std::string, E>& names, const std::string& help) {
  return app->add_option(name, field, help)
      ->transform(CLI::Transformer(names).description(""))
      ->transform(one_of(names));
}

CLI::Option* add_seed(CLI::App* app, std::uint64_t& seed, const std::string& help) {
  return add_number(app, "--seed", seed, help, kSeed);
}

void add_members(CLI::App* app, std::string& members) {
  app->add_option("--members", members, "all | random:N | x,y;x,y;...")->capture_default_str();
}

// A router or timing parameter as its row of kParameters (model/core/parameters.hpp)
// says: the option --name (or `names`), the help line, the range or the value names, the
// default the field holds. `help`: in place of the row's line, where a subcommand has
// more to say.
void add_parameter(CLI::App* app, NetworkConfig& c, const Parameter& p, std::string names = "",
                   const std::string& help = "") {
  if (names.empty()) names = std::string("--") + p.name;
  std::uint32_t& field = p.of(c);
  const std::string& line = help.empty() ? std::string(p.doc) : help;
  if (p.choices == nullptr) {
    // A 0 that means "absent" passes here; NetworkConfig::validate() then refuses what lies
    // between 0 and the minimum, saying both.
    const std::int64_t low = p.zero_means != nullptr ? 0 : std::int64_t{p.min};
    add_number(app, names, field, line, decimal(low, std::int64_t{p.max}));
    return;
  }
  std::map<std::string, std::uint32_t> values;
  for (std::size_t i = 0; i < p.choice_count; ++i) values.emplace(p.choices[i].name, p.choices[i].value);
  add_names(app, names, field, values, line)->default_str(value_text(p, field));
}

// --pipeline NAME: an allocation pipeline preset (kPipelinePresets), applied once the
// command line and any --config file are read, to each of its values no option gave.
void add_pipeline(CLI::App* app, NetworkOptions& n) {
  std::vector<std::string> names;
  std::string help = "allocation pipeline preset; an option given beside it wins:";
  for (const PipelinePreset& p : kPipelinePresets) {
    names.push_back(p.name);
    help += std::string(" ") + p.name + " (" + p.doc + ");";
  }
  help.pop_back();
  app->add_option("--pipeline", n.pipeline, help)->check(one_of(names));
  app->final_callback([app, &n] {
    for (const PipelinePreset& p : kPipelinePresets) {
      if (n.pipeline != p.name) continue;
      // The preset's value also becomes the option's default, so that --print-config
      // writes it (a file that, read back, gives the same run).
      const auto unless_given = [app](const char* option, std::uint32_t& field, std::uint32_t value) {
        CLI::Option* o = app->get_option_no_throw(option);
        if (o != nullptr && o->count() != 0) return;
        field = value;
        if (o != nullptr) o->default_str(std::to_string(value));
      };
      RouterParams& r = n.config.router;
      unless_given("--routing-stage", r.routing_stage, p.routing_stage);
      unless_given("--va-stage", r.va_stage, p.va_stage);
      if (p.sets_timing) {
        unless_given("--tp", n.config.timing.tp, p.tp);
        unless_given("--trn", n.config.timing.trn, p.trn);
      }
    }
  });
}

// `ts_names`: the start-up's option name(s); multicast also calls it --startup, the QG
// paper's word. --ni is an option of the subcommands that use it (add_parameter); the
// other parameters with named values (--path-worms) are every subcommand's.
// `unused`: parameters the subcommand's run never reads (traffic injects at the routers,
// past the NI's start-up, and has no barrier): not offered, so that setting one is
// refused rather than ignored.
void add_network_options(CLI::App* app, NetworkOptions& n, const std::string& ts_names = "--ts",
                         const std::vector<std::string_view>& unused = {}) {
  NetworkConfig& c = n.config;
  add_mesh(app, c.mesh);
  for (const Parameter& p : kParameters) {
    if (std::find(unused.begin(), unused.end(), p.name) != unused.end()) continue;
    if (p.choices == nullptr) add_parameter(app, c, p, p.timing == &Timing::ts ? ts_names : "");
    else if (&p != &parameter("ni")) add_parameter(app, c, p);
  }
  add_pipeline(app, n);
  add_number(app, "--deadlock-cycles", c.deadlock_cycles,
             "report a deadlock after this many cycles without progress",
             decimal(std::int64_t{1}, std::numeric_limits<std::int64_t>::max()));
  app->add_option("--rtl", n.rtl,
                  "Verilated RTL routers at: all | x,y;x,y;... | random:N; mesh: the whole mesh as one "
                  "Verilated block")->check(kNonEmpty);
  app->add_option("--lockstep", n.lockstep,
                  "RTL routers checked every cycle against the model core at: all | x,y;... | random:N; "
                  "mesh: the mesh block, its boundary checked against the model's mesh")->check(kNonEmpty);
  add_number(app, "--threads", n.threads,
             "threads that evaluate the cycle's busy RTL routers (--rtl, --lockstep; the model needs none)",
             decimal(1, 64));
  add_names(app, "--progress", n.progress,
            std::map<std::string, ProgressMode>{{"auto", ProgressMode::Auto}, {"on", ProgressMode::On},
                                                {"off", ProgressMode::Off}},
            "how far the simulation is, on stderr: auto (on a terminal, not with --json), on, off")
      ->default_str("auto");
  app->add_flag("--memory-check,!--no-memory-check", n.memory_check,
                "refuse a mesh that may not fit in the memory available (the default); --no-memory-check runs it anyway");
  app->add_option("--trace", n.trace,
                  "waveform of every router for GTKWave: FILE.fst, or FILE.vcd; FILE.gtkw opens it (with RTL "
                  "routers also FILE.rtl.fst, their Verilated signals)")->check(kNonEmpty);
  app->add_option("--trace-routers", n.trace_routers, "the routers --trace shows: all | x,y;x,y;... | random:N")->check(kNonEmpty);
  app->add_option("--trace-window", n.trace_window, "the cycles --trace shows: FROM:TO")->check(kNonEmpty);
}

// Ordinary unicast load beside the command's own work (`what`: "barriers", ...).
// The load's own options need the load: without it they would change nothing.
void add_background_load(CLI::App* app, BackgroundLoad& l, const std::string& names, const std::string& what) {
  CLI::Option* load =
      app->add_option(names, l.pattern, "unicast load while the " + what + " run: uniform | transpose | hotspot")
          ->check(one_of(pattern_names()));
  app->add_option("--load-rate", l.rate, "the load's offered rate, flits/node/cycle")
      ->capture_default_str()
      ->transform(kFinite)
      ->needs(load);
  add_number(app, "--load-flits", l.flits, "flits per load packet", decimal(1, 1024))->needs(load);
  add_number(app, "--load-warmup", l.warmup, "cycles of load before the first " + what.substr(0, what.size() - 1),
             kNonNegative)
      ->needs(load);
}

CLI::App* add_barrier(CLI::App& app, BarrierOptions& o) {
  auto* barrier = app.add_subcommand("barrier", "simulate a barrier and compare with the analytic latency");
  add_network_options(barrier, o.net);
  add_members(barrier, o.params.members);
  // "btm,cs" runs both; CLI11 splits the list and checks each name.
  add_names(barrier, "--scheme", o.params.schemes, scheme_names(), "btm | cs | btm,cs (compare)")
      ->delimiter(',')
      ->default_str(scheme_name(o.params.schemes.front()));
  add_number(barrier, "--repeat", o.params.repeat, "barriers to measure (random members drawn anew each)",
             decimal(1, 100000));
  add_seed(barrier, o.params.seed, "seed for random members");
  barrier->add_flag("--software-fallback", o.params.software_fallback,
                    "with --registers 0: every member keeps its register in node memory (docs/barrier-fallback.md)");
  barrier->add_flag("--exact", o.params.exact,
                    fmt::format("fail unless every barrier takes the formula's cycles (needs --trm >= 5 + "
                                "--max-children + 1, {} by default, no --load)",
                                exact_trm_minimum(RouterParams{})));
  barrier->add_flag("--json", o.json, "print JSON");
  add_background_load(barrier, o.params.load, "--load", "barriers");
  return barrier;
}

CLI::App* add_tree(CLI::App& app, TreeOptions& o) {
  auto* tree = app.add_subcommand("tree", "print the barrier tree and every member's register");
  add_mesh(tree, o.mesh);
  add_members(tree, o.members);
  add_names(tree, "--scheme", o.scheme, scheme_names(), "btm | cs")->default_str(scheme_name(o.scheme));
  add_seed(tree, o.seed, "seed for random members");
  tree->add_flag("--json", o.json, "print JSON");
  tree->add_flag("--dot", o.dot, "print Graphviz DOT");
  return tree;
}

CLI::App* add_traffic(CLI::App& app, TrafficOptions& o) {
  auto* traffic = app.add_subcommand("traffic", "ordinary unicast load, measured like a NoC simulator");
  add_network_options(traffic, o.net, "--ts", kTrafficUnusedParameters);
  TrafficParams& p = o.params;
  add_names(traffic, "--pattern", p.pattern, pattern_names(), "uniform | transpose | hotspot")
      ->default_str(pattern_name(p.pattern));
  // TrafficParams::validate checks the rate: (0, 1] is not a closed range.
  traffic->add_option("--rate", p.rate, "offered load, flits/node/cycle")->capture_default_str()->transform(kFinite);
  add_number(traffic, "--flits", p.flits, "flits per packet", decimal(1, 1024));
  add_number(traffic, "--cycles", p.cycles, "measured cycles", kPositive);
  add_number(traffic, "--warmup", p.warmup, "cycles before measuring", kNonNegative);
  add_seed(traffic, p.seed, "seed of the traffic generator");
  traffic->add_flag("--saturation-stop,!--no-saturation-stop", p.stop_when_saturated,
                    "stop when the backlog shows the load is beyond saturation, as BookSim2 does (the default)");
  traffic->add_flag("--json", o.json, "print JSON");
  return traffic;
}

CLI::App* add_multicast_plan(CLI::App& app, MulticastPlanOptions& o) {
  auto* plan = app.add_subcommand(
      "multicast-plan", "print the worms of path-based multicasts (DP, MP, CP, QG) and their zero-load latency");
  add_mesh(plan, o.mesh);
  plan->add_option("--src", o.source, "the source node x,y")->capture_default_str();
  plan->add_option("--dests", o.dests, "random:K | x,y;x,y;...")->capture_default_str();
  add_names(plan, "--algo", o.algorithms, algorithm_names(), "dp | mp | cp | qg, or a list dp,qg")
      ->delimiter(',')
      ->default_str("dp,mp,cp,qg");
  plan->add_option("--threshold", o.threshold, "QG's threshold T (Phase 3)")
      ->capture_default_str()
      ->transform(real_range(0.0, 1000.0));
  add_number(plan, "--startup", o.timing.startup, "start-up per message-passing step, cycles", kNonNegative);
  add_number(plan, "--flits", o.timing.flits, "flits per message", kPositive);
  add_seed(plan, o.seed, "seed for random destinations");
  plan->add_flag("--json", o.json, "print JSON");
  return plan;
}

CLI::App* add_multicast(CLI::App& app, MulticastOptions& o) {
  auto* mc = app.add_subcommand(
      "multicast", "simulate path-based multicasts (DP, MP, CP, QG): alone, or under the QG paper's load");
  add_network_options(mc, o.net, "--startup,--ts");
  add_parameter(mc, o.net.config, parameter("ni"));
  mc->add_option("--src", o.params.source, "the source x,y of single multicasts (default 0,0)");
  mc->add_option("--dests", o.params.dests, "random:K | x,y;x,y;...")->capture_default_str();
  add_names(mc, "--algo", o.params.algorithms, algorithm_names(), "dp | mp | cp | qg, or a list dp,qg")
      ->delimiter(',')
      ->default_str("dp,mp,cp,qg");
  add_number(mc, "--flits", o.params.flits, "data flits per message (address flits come on top)", decimal(1, 4096));
  mc->add_option("--threshold", o.params.threshold, "QG's threshold T (Phase 3)")
      ->capture_default_str()
      ->transform(real_range(0.0, 1000.0));
  // The QG paper's model, switch by switch (docs/multicast.md); with --tp 0 a hop is trn.
  add_names(mc, "--addresses", o.params.model.addresses, address_flits_names(),
            "a worm's address flits: on-top of --flits, or within them (the paper's messages stay --flits long)")
      ->default_str(address_flits_name(o.params.model.addresses));
  add_names(mc, "--qg-routing", o.params.model.qg_routing, qg_routing_names(),
            "QG's base routing: snake (Hu/Hl, deadlock-free) or e-cube (XY between destinations, the paper's; may "
            "deadlock)")
      ->default_str(qg_routing_name(o.params.model.qg_routing));
  add_names(mc, "--sender-busy", o.params.model.sender_busy, sender_busy_names(),
            "a sender's CPU is free after its start-ups, or engaged until its worms are delivered (the paper's)")
      ->default_str(sender_busy_name(o.params.model.sender_busy));
  // run_multicast checks the rate, so that NaN and the range get one message.
  mc->add_option("--rate", o.params.rate, "multicasts/node/cycle (Poisson at every node); 0: single multicasts")
      ->capture_default_str()->transform(kFinite);
  add_number(mc, "--trials", o.params.trials, "single multicasts, one after another (random destinations drawn anew)",
             decimal(1, 100000));
  add_number(mc, "--warmup", o.params.warmup, "under --rate: multicasts discarded before measuring", kNonNegative);
  add_number(mc, "--batches", o.params.batches, "under --rate: batches of the batch means", decimal(1, 1000));
  add_number(mc, "--batch-size", o.params.batch_size, "under --rate: multicasts per batch", kPositive);
  add_number(mc, "--backlog", o.params.backlog, "under --rate: saturated beyond this many unfinished multicasts per node",
             kPositive);
  add_seed(mc, o.params.seed, "seed for destinations and generation times");
  mc->add_flag("--json", o.json, "print JSON");
  add_background_load(mc, o.params.load, "--load,--pattern", "multicasts");
  return mc;
}

CLI::App* add_sweep(CLI::App& app, SweepOptions& o) {
  auto* sweep = app.add_subcommand("sweep", "run the product of parameter lists x seeds on all cores (docs/sweep.md)");
  sweep->add_option("spec", o.spec, "the sweep, SPEC.yaml")->required()->check(input_file(kMaxConfigBytes));
  add_number(sweep, "--workers", o.workers, "points run at once (default: the cores)", decimal(0, 1024));
  add_number(sweep, "--max-points", o.max_points, "refuse a sweep of more points than this", decimal(1, kLarge));
  sweep->add_flag("--keep-failed", o.keep_failed,
                  "record a point that fails (bad input for its combination, or a simulation that cannot finish, "
                  "such as a deadlock) as a row with failure.exit_code and failure.message, and go on");
  sweep->add_option("--point-timeout", o.point_timeout, "end a point that runs longer than this, seconds (0: no limit)")
      ->capture_default_str()
      ->transform(real_range(0.0, 1e9));
  sweep->add_option("--output", o.output, "output prefix: PREFIX.csv, PREFIX.jsonl (default: the spec's)")->check(kNonEmpty);
  return sweep;
}

CLI::App* add_bcast(CLI::App& app, BcastOptions& o) {
  auto* bcast = app.add_subcommand("bcast", "broadcast over point-to-point messages: binomial or adaptive tree (docs/broadcast.md)");
  add_network_options(bcast, o.net);
  add_parameter(bcast, o.net.config, parameter("ni"));
  bcast->add_option("--comm", o.params.comm, "the ranks: all | random:N | x,y;x,y;... (rank i = i-th in node order)")
      ->capture_default_str();
  add_number(bcast, "--root", o.params.root, "the root rank", kNonNegative);
  static const auto algos = names_of<BroadcastAlgorithm>(kAllBroadcastAlgorithms, broadcast_algorithm_name);
  add_names(bcast, "--algo", o.params.algorithms, algos, "binomial | adaptive | twostage, or a list")
      ->delimiter(',')
      ->default_str("binomial");
  // 1 MiB: every rank keeps the message and its packets (bcast_command.cpp's estimate).
  add_number(bcast, "--bytes", o.params.bytes, "message size, bytes (4 per body flit)", decimal(0, 1 << 20));
  add_number(bcast, "--mtu", o.params.mtu, "bytes per packet", kPositive);
  add_number(bcast, "--skew", o.params.skew, "ranks enter within this many cycles of each other (seeded)", kNonNegative);
  bcast->add_option("--loss", o.params.loss, "two-stage: each multicast copy an NI would keep is lost with this probability")
      ->capture_default_str()
      ->transform(real_range(0.0, 1.0));
  bcast->add_option("--stage0", o.params.stage0, "two-stage: before the multicast the root waits for none | delay | sync (one random rank)")
      ->capture_default_str()
      ->check(one_of({"none", "delay", "sync"}));
  add_number(bcast, "--root-delay", o.params.root_delay, "two-stage, --stage0 delay: cycles the root waits", kNonNegative);
  add_number(bcast, "--threshold", o.params.threshold, "two-stage: fewer ranks run TUNED's binomial tree instead", decimal(2, std::int64_t{1} << 30));
  // LogP's split of a send (docs/broadcast.md, "The cost of a send"); unset, a send costs
  // the start-up ts of CPU time and its head enters the router as it ends.
  const auto send_cycles = [&](const char* name, std::optional<std::int64_t>& field, const char* help) {
    bcast->add_option_function<std::int64_t>(name, [&field](const std::int64_t& v) { field = v; }, help)
        ->transform(decimal(0, kParameterLarge));
  };
  send_cycles("--send-overhead", o.params.send_overhead,
              "cycles a send keeps its rank busy (LogP's o; default ts)");
  send_cycles("--send-latency", o.params.send_latency,
              "cycles from the end of a send's overhead to its head entering the router (LogP's L at the NI; default 0)");
  send_cycles("--send-gap", o.params.send_gap,
              "cycles at least between the heads of two sends of one NI (LogP's g; default 0)");
  send_cycles("--multicast-latency", o.params.multicast_latency,
              "twostage: L of the tree multicast (default --send-latency)");
  bcast->add_option("--done-at", o.params.done_at,
                    "a rank leaves the broadcast once its last send is posted, or once it is delivered")
      ->capture_default_str()
      ->check(one_of({"posted", "delivered"}));
  add_number(bcast, "--repeat", o.params.repeat, "broadcasts in a row (the adaptive tree learns between them)", decimal(1, 100000));
  bcast->add_option("--slow-link", o.params.slow_link, "x,y:PORT:CYCLES: that link (PORT +X -X +Y -Y) gets this much slower ...");
  add_number(bcast, "--slow-at", o.params.slow_at, "... before this broadcast (1-based)", kPositive);
  bcast->add_option("--swapping", o.params.swapping, "the adaptive tree's strategy: family | path | leaf | position")
      ->capture_default_str()
      ->check(one_of({"family", "path", "leaf", "position"}));
  bcast->add_option("--learn", o.params.learn,
                    "the adaptive tree's costs after each broadcast: edges (its own edges' measured latencies) | "
                    "links (told every link's extra latency)")
      ->capture_default_str()
      ->check(one_of({"edges", "links"}));
  add_seed(bcast, o.params.seed, "seed for random ranks, the message's bytes and the skews");
  bcast->add_flag("--json", o.json, "print JSON");
  bcast->add_flag("--per-rank", o.per_rank, "every rank's cycles (JSON: always with one run)");
  return bcast;
}

CLI::App* add_allreduce(CLI::App& app, AllreduceOptions& o) {
  auto* cmd = app.add_subcommand("allreduce",
                                 "allreduce in the routers along the BTM tree (btm) and over point-to-point messages: "
                                 "recursive doubling, ring, binomial; every rank's result checked (docs/reduction.md)");
  add_network_options(cmd, o.net);
  add_parameter(cmd, o.net.config, parameter("ni"));
  cmd->add_option("--comm", o.params.comm, "the ranks: all | random:N | x,y;x,y;... (rank i = i-th in node order)")
      ->capture_default_str();
  add_names(cmd, "--op", o.params.op, reduce_op_names(), "sum | min | max | and | or | xor")
      ->default_str(reduce_op_name(o.params.op));
  add_names(cmd, "--type", o.params.type, element_type_names(), "int32 | int64 | float32")
      ->default_str(element_type_name(o.params.type));
  add_number(cmd, "--elements", o.params.elements, "elements per rank's vector", decimal(1, kLarge));
  add_names(cmd, "--algo", o.params.algorithms, allreduce_algorithm_names(),
            "btm | recursive-doubling | ring | binomial, or a list")
      ->delimiter(',')
      ->default_str("btm,recursive-doubling,ring,binomial");
  cmd->add_flag("--exact", o.params.exact,
                "fail unless btm takes its formula's cycles, 2(ts + B) + L - 1 (needs --trm >= 5L + 4K + 2 and "
                "--sync-buffer-depth >= min(L, 2 tp + trn + 1), L = 2 + 2 words)");
  add_seed(cmd, o.params.seed, "seed for random ranks and the inputs");
  cmd->add_flag("--json", o.json, "print JSON (every rank's input and result up to 64 ranks)");
  cmd->add_flag("--per-rank", o.per_rank, "every rank's completion");
  return cmd;
}

CLI::App* add_adaptive_tree(CLI::App& app, AdaptiveTreeOptions& o) {
  auto* cmd = app.add_subcommand("adaptive-tree",
                                 "Figueira & Mendes' swapping (Figs. 7, 8) and churn (Fig. 9) experiments on random distances");
  cmd->add_option("--experiment", o.params.experiment, "swapping | churn")
      ->capture_default_str()
      ->check(one_of({"swapping", "churn"}));
  // The distance matrix holds (nodes + operations)^2 4-byte distances: 8192 + 8192 take 1 GB.
  add_number(cmd, "--nodes", o.params.nodes, "nodes in the tree", decimal(2, 8192));
  add_number(cmd, "--max-distance", o.params.max_distance, "distances uniform in [0, this]", decimal(0, 1000000));
  cmd->add_option("--cost-factors", o.params.cost_factors, "what one tree edge's distance grows by (swapping)")
      ->delimiter(',')
      ->transform(decimal(0, 1000000))
      ->default_str("5,10,20,30,40");
  add_number(cmd, "--topologies", o.params.topologies, "random matrices per point (swapping)", decimal(1, 1000000));
  add_number(cmd, "--trees", o.params.trees, "random trees (churn)", decimal(1, 100000));
  add_number(cmd, "--operations", o.params.operations, "random joins and leaves per tree (churn; each join a new node)",
             decimal(1, 8192));
  cmd->add_flag("--memory-check,!--no-memory-check", o.memory_check,
                "refuse a distance matrix that may not fit in the memory available (the default)");
  auto* seed = add_seed(cmd, o.params.seed, "seed of the matrices, edges and operations");
  cmd->add_option("--reading", o.params.reading,
                  "when a search changes the tree: guarded (the cheapest trial only if it lowers the cost; a join "
                  "searches only if it raised the cost) or paper (the cheapest always; a join always searches)")
      ->capture_default_str()
      ->check(one_of({"guarded", "paper"}));
  // A worked example instead: the options of the random experiments would change nothing.
  auto* distances = cmd->add_option("--distances", o.distances,
                                    "a distance matrix (CSV, one row per line): print its Balanced-Path tree and "
                                    "--steps one by one, as the paper's Tables 2-8")
                        ->check(input_file(kMaxDistanceBytes));
  for (const char* name : {"--experiment", "--nodes", "--max-distance", "--cost-factors", "--topologies", "--trees",
                           "--operations", "--memory-check"})
    distances->excludes(cmd->get_option(name));
  distances->excludes(seed);
  add_number(cmd, "--root", o.root, "the root's node (--distances)", decimal(0, 8191))->needs(distances);
  cmd->add_option("--steps", o.steps,
                  "after the Balanced-Path tree (--distances): swap A B; join V; leave V; raise A B DISTANCE "
                  "(`;` or `/` between steps)")
      ->check(kNonEmpty)
      ->needs(distances);
  cmd->add_option("--swapping", o.swapping, "the search that repairs a leave or a dearer edge (--distances)")
      ->capture_default_str()
      ->check(one_of({"family", "path", "leaf", "position"}))
      ->needs(distances);
  cmd->add_flag("--json", o.json, "print JSON");
  return cmd;
}
CLI::App* add_soak(CLI::App& app, SoakOptions& o) {
  auto* soak = app.add_subcommand(
      "soak", "unicast load, concurrent barriers and multicasts in one run, every flit and release checked (docs/reliability.md)");
  add_network_options(soak, o.net);
  add_parameter(soak, o.net.config, parameter("ni"), "", "one-port | all-port (multicasts need all-port)");
  SoakParams& p = o.params;
  add_number(soak, "--cycles", p.cycles, "new packets, barrier epochs and multicasts start before this cycle", kPositive);
  add_seed(soak, p.seed, "seed of every random choice (load, groups, arrivals, multicasts, corrupted bit)");
  add_names(soak, "--pattern", p.pattern, pattern_names(), "uniform | transpose | hotspot")
      ->default_str(pattern_name(p.pattern));
  // SoakParams::validate checks the rates, so that NaN and the range get one message.
  soak->add_option("--rate", p.rate, "unicast load, flits/node/cycle (0: none)")->capture_default_str()->transform(kFinite);
  add_number(soak, "--flits", p.flits, "flits per unicast packet", decimal(1, 1024));
  soak->add_option("--groups", p.groups, "barrier groups, alternately BTM and CS (0: none; default 3 x registers + 1, at least 4)")
      ->transform(decimal(0, 256));
  add_number(soak, "--group-size", p.group_size, "members per group (0: half the nodes, at most 256)", kNonNegative);
  add_number(soak, "--think", p.think, "a member arrives 0..think cycles after its release", kNonNegative);
  add_names(soak, "--algo", p.algorithm, algorithm_names(), "multicast algorithm: dp | mp | cp | qg")
      ->default_str(algorithm_name(p.algorithm));
  soak->add_option("--multicast-rate", p.multicast_rate, "multicasts/node/cycle (0: none)")->capture_default_str()->transform(kFinite);
  add_number(soak, "--multicast-dests", p.multicast_dests, "destinations per multicast", kPositive);
  add_number(soak, "--multicast-flits", p.multicast_flits, "data flits per multicast", decimal(1, 4096));
  add_number(soak, "--broadcast-gap", p.broadcast_gap,
             "cycles between broadcast starts, each on ranks in no running broadcast (0: no broadcasts)", kNonNegative);
  add_number(soak, "--broadcast-ranks", p.broadcast_ranks,
             "ranks per broadcast (0: a quarter of the nodes, 2 to 64)", kNonNegative);
  add_number(soak, "--broadcast-bytes", p.broadcast_bytes, "bytes per broadcast", kNonNegative);
  add_number(soak, "--broadcast-mtu", p.broadcast_mtu, "bytes per broadcast packet", kPositive);
  add_number(soak, "--allreduce-gap", p.allreduce_gap,
             "cycles between allreduces, each on as many free ranks as a broadcast, every fourth in the routers (0: none)",
             kNonNegative);
  soak->add_option("--fault", o.faults,
                   "inject a fault (repeatable): link:X,Y,DIR@CYCLE | router:X,Y@CYCLE | corrupt:X,Y,DIR@CYCLE, DIR +X -X +Y -Y");
  soak->add_flag("--json", o.json, "print JSON");
  return soak;
}
}  // namespace

CommandLine::CommandLine()
    : app_("meshsync: cycle-accurate 2D-mesh routers with barrier registers (BTM, CS)", "meshsync") {
  app_.require_subcommand(1);
  app_.fallthrough();
  // YamlConfig rejects keys that name no option of the subcommand.
  app_.set_config("--config", "", "read options from a YAML file (keys are option names)")
      ->check(input_file(kMaxConfigBytes));
  app_.config_formatter(std::make_shared<YamlConfig>(&app_));
  app_.add_flag("--print-config", print_config_,
                "print every option of the subcommand as YAML for --config, with its value or default, and exit");
  app_.footer("Every subcommand also takes --config FILE.yaml.");
  barrier_cmd_ = add_barrier(app_, barrier_);
  tree_cmd_ = add_tree(app_, tree_);
  traffic_cmd_ = add_traffic(app_, traffic_);
  multicast_plan_cmd_ = add_multicast_plan(app_, multicast_plan_);
  multicast_cmd_ = add_multicast(app_, multicast_);
  sweep_cmd_ = add_sweep(app_, sweep_);
  bcast_cmd_ = add_bcast(app_, bcast_);
  adaptive_tree_cmd_ = add_adaptive_tree(app_, adaptive_tree_);
  soak_cmd_ = add_soak(app_, soak_);
  allreduce_cmd_ = add_allreduce(app_, allreduce_);
}

void CommandLine::parse(const std::vector<std::string>& args) {
  check_arguments(app_, args);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  app_.parse(reversed);
}

}  // namespace meshsync

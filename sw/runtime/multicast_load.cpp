#include "multicast_load.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "../../model/core/random.hpp"

namespace meshsync {

std::uint64_t percentile99(std::vector<std::uint64_t> v) {
  if (v.empty()) return 0;
  // The smallest value that at least 99% of them do not exceed (as meshsync traffic).
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank - 1), v.end());
  return v[rank - 1];
}

std::vector<MulticastRecord> run_in_turn(Machine& m, MulticastService& svc, const std::vector<MulticastCall>& calls) {
  std::vector<MulticastRecord> out;
  sc_core::sc_event finished;
  for (const MulticastCall& c : calls) {
    if (!m.mesh().has_traffic()) m.mesh().wait_idle();
    bool done = false;
    svc.multicast(c.source, c.dests, [&](const MulticastRecord& r) {
      out.push_back(r);
      done = true;
      finished.notify(sc_core::SC_ZERO_TIME);
    });
    while (!done) sc_core::wait(finished);
  }
  return out;
}

namespace {

// The state of one load measurement, shared by the nodes' generators. Callbacks hold it
// alive: they may outlive the measurement when the caller lets the simulation go on.
struct LoadRun : std::enable_shared_from_this<LoadRun> {
  MulticastLoad p;
  Machine& m;
  MulticastService& svc;
  Random rng;
  std::vector<NodeId> others;  // scratch for drawing destinations
  bool generating = true;
  std::uint64_t measured_begin = 0, measured_end = 0;  // the ids of the measured multicasts
  std::uint64_t deadline = 0;
  std::uint64_t first_call = 0, last_finish = 0;
  std::vector<std::uint64_t> latencies;
  std::vector<double> batch_sum;
  std::vector<std::uint64_t> batch_count;
  double startups = 0, worms = 0, hops = 0, zero_load = 0;
  std::string saturation;
  std::string deadlock;  // tell_deadlock's finding
  sc_core::sc_event over;

  LoadRun(const MulticastLoad& load, Machine& machine, MulticastService& service)
      : p(load), m(machine), svc(service), rng(load.seed), batch_sum(load.batches), batch_count(load.batches) {}

  void stop(const std::string& why) {
    if (!generating) return;
    generating = false;
    saturation = why;
    over.notify(sc_core::SC_ZERO_TIME);
  }

  // Node n's next multicast: a Bernoulli process of `rate` per cycle (the discrete
  // Poisson process), so the gap is 1 + a geometric number of cycles.
  void schedule(NodeId n) {
    const std::uint64_t at = rng.next_event(m.now(), p.rate);
    if (at == kNever) return;  // beyond any run: this node sends no more
    m.mesh().at(at, [self = shared_from_this(), n] { self->generate(n); });
  }

  void generate(NodeId n) {
    if (!generating) return;
    const auto nodes = static_cast<std::uint64_t>(m.mesh().mesh().nodes());
    if (svc.in_progress() > p.backlog_per_node * nodes) {
      stop("backlog: more than " + std::to_string(p.backlog_per_node) + " unfinished multicasts per node");
      return;
    }
    if (m.now() > deadline) {
      stop("time: the measured multicasts did not finish within twice their generation time");
      return;
    }
    others.clear();
    for (NodeId d = 0; d < nodes; ++d)
      if (d != n) others.push_back(d);
    rng.partial_shuffle(others.begin(), others.end(), p.destinations);
    const std::vector<NodeId> dests(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(p.destinations));
    if (svc.calls() == measured_begin) first_call = m.now();
    svc.multicast(n, dests, [self = shared_from_this()](const MulticastRecord& r) { self->finished(r); });
    schedule(n);
  }

  void finished(const MulticastRecord& r) {
    if (r.id < measured_begin || r.id >= measured_end) return;
    const std::uint64_t lat = r.latency();
    latencies.push_back(lat);
    const std::size_t b = static_cast<std::size_t>((r.id - measured_begin) / p.batch_size);
    batch_sum[b] += static_cast<double>(lat);
    ++batch_count[b];
    startups += r.startups;
    worms += static_cast<double>(r.worms);
    hops += static_cast<double>(r.hops);
    zero_load += static_cast<double>(r.zero_load);
    last_finish = std::max(last_finish, r.finished);
    if (latencies.size() == p.batches * p.batch_size) stop("");
  }
};

// What the measurement saw when it stopped.
MulticastLoadResult result_of(LoadRun& run) {
  const MulticastLoad& p = run.p;
  const auto nodes = static_cast<std::uint64_t>(run.m.mesh().mesh().nodes());
  MulticastLoadResult r;
  r.saturated = !run.saturation.empty();
  r.saturation = run.saturation;
  r.measured = run.latencies.size();
  r.cycles = run.m.now();
  if (r.measured == 0) return r;  // a saturated run that stopped first: no average of anything
  const double n = static_cast<double>(r.measured);
  // Batch means over the batches that finished (all of them unless saturated).
  std::vector<double> means;
  for (std::size_t b = 0; b < p.batches; ++b)
    if (run.batch_count[b] == p.batch_size) means.push_back(run.batch_sum[b] / static_cast<double>(p.batch_size));
  r.batch_means = means;
  if (means.empty()) {
    r.latency_avg = std::accumulate(run.latencies.begin(), run.latencies.end(), 0.0) / n;
  } else {
    const double k = static_cast<double>(means.size());
    const double avg = std::accumulate(means.begin(), means.end(), 0.0) / k;
    r.latency_avg = avg;
    double ss = 0;
    for (double x : means) ss += (x - avg) * (x - avg);
    // One batch mean has no spread to estimate: that is no error of 0.
    if (means.size() > 1) r.latency_stderr = std::sqrt(ss / (k - 1) / k);
  }
  r.latency_max = *std::max_element(run.latencies.begin(), run.latencies.end());
  r.latency_p99 = percentile99(std::move(run.latencies));
  r.startups_avg = run.startups / n;
  r.worms_avg = run.worms / n;
  r.hops_avg = run.hops / n;
  r.zero_load_avg = run.zero_load / n;
  if (run.last_finish > run.first_call)
    r.throughput = n / static_cast<double>(run.last_finish - run.first_call) / static_cast<double>(nodes);
  return r;
}

// After a saturation stop: a saturated network drains once no new multicasts come, a
// deadlocked one does not. It runs on without them until every multicast has finished
// (saturated; the stop's reason stands) or until neither a flit crossed a link nor a
// multicast finished for half of deadlock_cycles (deadlocked: `deadlock` says how many
// are stuck and where, as the network's deadlock report does). Half, so that the
// network's own detector, which would end the run at the full count, does not fire
// first. It cannot fire at all while other worms still move: a cycle of waiting worms
// beside a live network is found here or nowhere.
void tell_deadlock(LoadRun& run) {
  MeshSystem& mesh = run.m.mesh();
  const std::uint64_t window = std::max<std::uint64_t>(1, mesh.config().deadlock_cycles / 2);
  std::uint64_t hops = mesh.core().counters().worm_flit_hops, open = run.svc.in_progress();
  std::uint64_t last_progress = run.m.now();
  while (run.svc.in_progress() > 0) {
    mesh.wait_cycle(run.m.now() + std::min<std::uint64_t>(window, 1000));
    const std::uint64_t h = mesh.core().counters().worm_flit_hops, o = run.svc.in_progress();
    if (h != hops || o != open) {
      hops = h;
      open = o;
      last_progress = run.m.now();
    } else if (run.m.now() - last_progress >= window) {
      run.deadlock = std::to_string(o) + " multicasts unfinished and no flit moved for " +
                     std::to_string(window) + " cycles after generation stopped (cycle " +
                     std::to_string(run.m.now()) + ")\n" + mesh.core().stuck_report();
      if (run.deadlock.back() == '\n') run.deadlock.pop_back();  // the program ends the line itself
      return;
    }
  }
}

}  // namespace

MulticastLoadResult measure_multicast_load(Machine& m, MulticastService& svc, const MulticastLoad& p) {
  if (!(p.rate > 0) || p.batches < 1 || p.batch_size < 1) throw ConfigError("multicast load needs a rate > 0 and batches");
  const auto nodes = static_cast<std::uint64_t>(m.mesh().mesh().nodes());
  if (p.destinations < 1 || p.destinations >= nodes)
    throw ConfigError("random:K needs 1 <= K < " + std::to_string(nodes) + " (the other nodes)");
  const auto shared = std::make_shared<LoadRun>(p, m, svc);
  LoadRun& run = *shared;
  run.measured_begin = svc.calls() + p.warmup;
  run.measured_end = run.measured_begin + p.batches * p.batch_size;
  const double generation = static_cast<double>(p.warmup + p.batches * p.batch_size) / (p.rate * static_cast<double>(nodes));
  run.deadline = m.now() + static_cast<std::uint64_t>(2 * generation) + 100ull * m.mesh().config().timing.ts;
  run.latencies.reserve(p.batches * p.batch_size);
  for (NodeId n = 0; n < nodes; ++n) run.schedule(n);
  while (run.generating) sc_core::wait(run.over);
  MulticastLoadResult r = result_of(run);
  // Unicast load beside the multicasts never stops, so its network never drains.
  if (r.saturated && !m.mesh().has_traffic()) {
    tell_deadlock(run);
    r.deadlock = run.deadlock;
  }
  return r;
}

}  // namespace meshsync

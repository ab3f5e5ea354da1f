#include "random_bench.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "model/core/packet.hpp"
#include "model/core/random.hpp"
#include "model/core/reduction_message.hpp"
#include "model/core/snake.hpp"

namespace meshsync::rtl {

std::string BenchStats::summary() const {
  std::ostringstream s;
  s << cycles << " cycles, " << flits_compared << " flits and " << credits_compared
    << " credits compared, " << idle_cycles << " idle cycles; " << worms << " worms (" << lane_flits_out << " flits out on unicast VCs past VC 0), "
    << multicast_worms << " multidestination worms (" << absorbed << " absorbed here, "
    << forced_first_hops << " with a forced first hop), " << tree_worms << " tree worms (" << tree_here
    << " addressed here, " << tree_flits_out << " tree flits out), "
    << sync_messages << " sync messages (" << reduction_messages << " reduction worms); " << channel_flits_in << " flits in on injection channels 1-3, "
    << channel_flits_out << " out on ejection outputs; "
    << programs_ok << " programs ok, " << programs_failed << " failed, " << frees
    << " frees (" << early_frees << " early, " << aborts << " mid-epoch); " << epochs
    << " epochs in hardware (" << reduction_epochs << " reductions of a vector begun)";
  return s.str();
}

namespace {

constexpr std::uint8_t kFirstPlayerGid = 1;
constexpr std::uint8_t kFirstFillerGid = 100;
constexpr int kFillers = 6;
constexpr std::uint8_t kFirstPoolGid = 200;  // never programmed as members
constexpr int kPoolGids = 16;

class Bench {
 public:
  Bench(std::unique_ptr<RtlRouter> rtl, const BenchOptions& opt)
      : ls_(std::move(rtl), opt.where), opt_(opt), rng_(opt.seed) {
    for (int p = 0; p < kPorts; ++p)
      for (int v = 0; v < kRtlVcs; ++v) up_credit_[p][v] = static_cast<int>(ls_.depth(v));
    for (int i = 0; i < opt_.players; ++i) {
      Player pl;
      pl.gid = static_cast<std::uint8_t>(kFirstPlayerGid + i);
      pl.wake = uniform(0, 200);
      players_.push_back(pl);
    }
    fillers_.resize(kFillers);
    rel_out_.assign(static_cast<std::size_t>(std::max(1, static_cast<int>(ls_.params().router.barrier_registers))), 0);
  }

  BenchResult run() {
    BenchResult res;
    for (std::uint64_t i = 0; i < opt_.cycles; ++i) {
      const std::uint64_t c = ls_.cycle();
      const ModelCycle& mo = ls_.step_model();
      if (mo.error) {
        res.ok = false;
        res.mismatch = "cycle " + std::to_string(c) + " model error: " + mo.error_text;
        break;
      }
      observe(mo, c);
      Stimulus s;
      credits_to_router(s, c);
      generate_traffic(c);
      for (std::size_t k = 0; k < players_.size(); ++k) play(k, c);
      fill(c);
      present_flits(s, c);
      PendingOp op;
      if (!ops_.empty()) {
        op = ops_.front();
        ops_.pop_front();
        s.reg = op.cmd;
      }
      if (!ls_.apply(s)) {
        res.ok = false;
        res.mismatch = ls_.mismatch();
        break;
      }
      if (op.cmd.op != RegOp::None && op.done) op.done(ls_.model_reg_ok(), c);
    }
    stats_.cycles = ls_.cycle();
    stats_.flits_compared = ls_.flits_compared();
    stats_.credits_compared = ls_.credits_compared();
    stats_.idle_cycles = ls_.idle_cycles();
    res.stats = stats_;
    return res;
  }

 private:
  enum class St { Idle, WaitOp, Soft, Arrivals, WaitUp, ReleaseDue, WaitReleases, Draining, Dead };
  struct Player {
    std::uint8_t gid = 0;
    St st = St::Idle;
    BarrierRegisterSetup setup;
    bool cs = false;
    int entry = -1;
    std::vector<std::uint8_t> to_send;
    int sent = 0;
    int rel_left = 0;  // releases of its batch not yet seen leaving
    bool local_rel_seen = false;
    int soft_left = 0;
    std::uint64_t wake = 0;
    // This epoch reduces a vector in the routers (docs/reduction-hardware.md): every
    // arrival is a reduction message with `desc`, an allreduce's release from the parent
    // one too.
    bool reduce = false;
    ReductionDescriptor desc;
  };
  struct Filler {
    bool programmed = false;
  };
  struct PendingOp {
    RegCommand cmd;
    std::function<void(bool, std::uint64_t)> done;
  };

  std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi) { return lo + rng_.below(hi - lo + 1); }
  bool chance(double p) { return rng_.bernoulli(p); }
  NodeId random_node() {
    return static_cast<NodeId>(uniform(0, static_cast<std::uint64_t>(ls_.mesh().nodes() - 1)));
  }
  NodeId random_other_node() {
    NodeId n;
    do n = random_node();
    while (n == ls_.self());
    return n;
  }
  NodeId neighbour(int port) const {
    return ls_.mesh().id(step(ls_.where(), port_at(port)));
  }

  bool queued(std::uint8_t gid) const {
    for (int p = 0; p < kPorts; ++p)
      for (int v = 1; v < kRtlVcs; ++v)
        for (const Flit& f : q_[p][v])
          if (f.sync && f.gid == gid) return true;
    return false;
  }

  void send_sync(int port, const Flit& f) { send_sync(port, std::vector<Flit>{f}); }
  // A sync message of one flit or a reduction message's worm.
  void send_sync(int port, const std::vector<Flit>& message) {
    for (const Flit& f : message) q_[port][f.vc()].push_back(f);
    ++stats_.sync_messages;
    if (message.size() > 1) ++stats_.reduction_messages;
  }

  // ---- what the router did in cycle c --------------------------------------------------
  void observe(const ModelCycle& mo, std::uint64_t c) {
    for (int o = 0; o < kRtlOutputs; ++o) {
      if (!mo.out[o]) continue;
      const Flit& f = *mo.out[o];
      if (o >= kPorts) ++stats_.channel_flits_out;
      if (f.allocates_vc() && f.lane != 0) ++stats_.lane_flits_out;
      if (f.tree) ++stats_.tree_flits_out;
      if (o != 0 && o < kPorts) {  // a link: the downstream buffer frees the slot later
        std::uint64_t due = c + 1 + static_cast<std::uint64_t>(opt_.link_delay) + uniform(0, 2);
        due = std::max(due, stall_until_[o]);
        down_[o][f.vc()].insert(due);
      }
      if (!f.sync) continue;
      for (auto& pl : players_) {
        if (f.gid != pl.gid) continue;
        // A message counts once it has left whole: a reduction message by its tail (the
        // emitter holds the batch until then, and the NI has the vector only then).
        if (!f.tail) continue;
        if (f.stype == SyncType::Arrive && pl.st == St::WaitUp && (f.data < 5 || f.data == 15)) {
          pl.st = St::ReleaseDue;
          pl.wake = c + uniform(1, 20);
          ++stats_.epochs;
        } else if (f.stype == SyncType::Release && f.data == 0 && pl.rel_left > 0) {
          --pl.rel_left;
          auto be = batch_entry_.find(pl.gid);
          if (be != batch_entry_.end()) --rel_out_[static_cast<std::size_t>(be->second)];
          if (o == 0) pl.local_rel_seen = true;
        }
      }
    }
    for (int p = 1; p < kPorts; ++p)
      for (int v = 0; v < kRtlVcs; ++v)
        if (mo.credit[p][v]) up_pending_.push_back({c + static_cast<std::uint64_t>(opt_.credit_delay), p, v});
    if (opt_.stalls)
      for (int o = 1; o < kPorts; ++o)
        if (chance(0.002)) stall_until_[o] = std::max(stall_until_[o], c + uniform(20, 150));
  }

  // Downstream buffers free their slots: at most one credit per (port, VC) and cycle.
  void credits_to_router(Stimulus& s, std::uint64_t c) {
    for (int o = 1; o < kPorts; ++o)
      for (int v = 0; v < kRtlVcs; ++v) {
        auto& d = down_[o][v];
        if (!d.empty() && *d.begin() <= c + 1) {
          d.erase(d.begin());
          s.credit[o][v] = true;
        }
      }
  }

  // ---- traffic not played by groups ---------------------------------------------------
  // An all-port NI's injection channels 1-3 (inputs 5-7) carry worms only.
  // A router built without path worms or the tree VC gets none of them.
  void generate_traffic(std::uint64_t) {
    const RouterParams& router = ls_.params().router;
    for (int p = 0; p < ls_.inputs(); ++p) {
      // A unicast worm on any of the router's unicast VCs (the upstream router's VC
      // allocation); with one, no draw, so that the stimulus of every one-VC bench stays
      // what it was.
      const auto lane = static_cast<std::uint8_t>(router.unicast_vcs > 1 ? uniform(0, router.unicast_vcs - 1) : 0);
      if (q_[p][unicast_vc(lane)].size() < 4 && chance(opt_.worm_rate)) queue_worm(p, lane);
      if (router.path_worms != 0 && q_[p][kSnakeVc].size() < 4 && chance(opt_.mcast_rate)) queue_multicast(p);
      if (router.tree_buffer_depth > 0 && q_[p][kTreeVc].size() < 16 && chance(opt_.tree_rate)) queue_tree(p);
      if (p < kPorts && chance(opt_.sync_rate)) queue_other_sync(p);
    }
  }
  static bool injection(int p) { return p == 0 || p >= kPorts; }

  void queue_worm(int p, std::uint8_t lane) {
    int len;
    const double r = rng_.real();
    if (r < 0.3) len = 1;
    else if (r < 0.8) len = static_cast<int>(uniform(2, 5));
    else if (r < 0.95) len = static_cast<int>(uniform(6, 12));
    else len = static_cast<int>(uniform(13, 24));
    const NodeId dest = random_node();
    ++worm_id_;
    for (int i = 0; i < len; ++i) {
      Flit f;
      f.packet = worm_id_;
      f.dest = dest;
      f.seq = static_cast<std::uint16_t>(i);
      f.length = static_cast<std::uint16_t>(len);
      f.head = i == 0;
      f.tail = i + 1 == len;
      f.payload = static_cast<std::uint32_t>(rng_.bits());
      f.lane = lane;
      q_[p][f.vc()].push_back(f);
    }
    ++stats_.worms;
  }

  // Half of the snake worms carry a forced first hop (MP), a step towards their first
  // destination: the router honours it only on an injection input and only when that
  // destination is not this router, so the other inputs check that it is ignored.
  Port forced_first_hop(WormBase base, NodeId first_dest) {
    if (base == WormBase::XY || !chance(0.5)) return Port::Local;
    const MeshShape& mesh = ls_.mesh();
    const Coord to = mesh.coord(first_dest);
    std::vector<Port> closer;
    for (int port = 1; port < kPorts; ++port) {
      const Port q = port_at(port);
      if (mesh.has_neighbor(ls_.where(), q) && hops(step(ls_.where(), q), to) < hops(ls_.where(), to))
        closer.push_back(q);
    }
    if (closer.empty()) return port_at(static_cast<int>(uniform(1, kPorts - 1)));  // dest: here
    return closer[static_cast<std::size_t>(uniform(0, closer.size() - 1))];
  }

  // A multidestination worm as it would reach this router on input `p`: its addresses
  // are still to visit in order, so in Hu (Hl) every address after the first one here
  // has a higher (lower) label than this router; with XY base any order routes.
  void queue_multicast(int p) {
    const MeshShape& mesh = ls_.mesh();
    const WormBase base = static_cast<WormBase>(uniform(0, 2));
    const int here = snake_label(mesh, ls_.where());
    const auto ahead = [&](NodeId n) {
      const int l = snake_label(mesh, mesh.coord(n));
      return base == WormBase::XY || (base == WormBase::High ? l > here : l < here);
    };
    std::vector<NodeId> dests;
    if (chance(0.5)) {
      dests.push_back(ls_.self());
      ++stats_.absorbed;
    }
    const auto k = static_cast<std::size_t>(uniform(1, 3));
    for (int tries = 0; dests.size() < k + (dests.empty() ? 0 : 1) && tries < 50; ++tries) {
      const NodeId n = random_other_node();
      if (ahead(n) && std::find(dests.begin(), dests.end(), n) == dests.end()) dests.push_back(n);
    }
    if (dests.empty()) return;
    // Snake worms visit their destinations in label order (the router needs only that
    // each is ahead of the routers before it).
    if (base != WormBase::XY) {
      const auto first = dests.begin() + (dests[0] == ls_.self() ? 1 : 0);
      std::sort(first, dests.end(), [&](NodeId a, NodeId b) {
        const int la = snake_label(mesh, mesh.coord(a)), lb = snake_label(mesh, mesh.coord(b));
        return base == WormBase::High ? la < lb : la > lb;
      });
    }
    const auto data = static_cast<std::uint16_t>(uniform(1, 12));
    const Port first = forced_first_hop(base, dests[0]);
    if (first != Port::Local && injection(p) && dests[0] != ls_.self()) ++stats_.forced_first_hops;
    ++worm_id_;
    for (Flit f : make_multicast_worm(worm_id_, 0, dests, base, first, data, 0)) {
      if (!f.addr) f.payload = static_cast<std::uint32_t>(rng_.bits());
      q_[p][f.vc()].push_back(f);
    }
    ++stats_.multicast_worms;
  }

  // A tree worm as it would reach this router on input `p`: addressed here (a member
  // router of its group, or a router without the group's register) or passing through.
  void queue_tree(int p) {
    const bool player_gid = opt_.players > 0 && chance(0.6);
    const auto gid = player_gid ? static_cast<std::uint8_t>(kFirstPlayerGid + uniform(0, opt_.players - 1))
                                : static_cast<std::uint8_t>(kFirstPoolGid + uniform(0, kPoolGids - 1));
    const bool here = chance(0.5);
    const NodeId dest = here ? ls_.self() : random_other_node();
    const auto length = static_cast<std::uint16_t>(uniform(1, 16));
    const Route route = chance(0.5) ? Route::YX : Route::XY;
    ++worm_id_;
    for (Flit f : make_tree_worm(worm_id_, 0, dest, gid, length, 0)) {
      f.route = route;
      if (!f.head) f.payload = static_cast<std::uint32_t>(rng_.bits());
      q_[p][kTreeVc].push_back(f);
    }
    ++stats_.tree_worms;
    stats_.tree_here += here;
  }

  void queue_other_sync(int p) {
    const double r = rng_.real();
    SyncType t = r < 0.35 ? SyncType::Arrive
                 : r < 0.7 ? SyncType::Release
                 : r < 0.85 ? SyncType::Setup
                            : SyncType::Teardown;
    const bool player_gid = opt_.players > 0 && chance(0.4);
    std::uint8_t gid = player_gid
                           ? static_cast<std::uint8_t>(kFirstPlayerGid + uniform(0, opt_.players - 1))
                           : static_cast<std::uint8_t>(kFirstPoolGid + uniform(0, kPoolGids - 1));
    const bool control = t == SyncType::Setup || t == SyncType::Teardown;
    // A setup makes a member's register a CS path register, which refuses vectors: the
    // players that reduce never see one.
    if (control && player_gid) gid = static_cast<std::uint8_t>(kFirstPlayerGid + 2 * uniform(0, (opt_.players - 1) / 2));
    // Arrive / release to this router only with GIDs no register is a member for.
    const bool to_self = chance(0.15) && (control || !player_gid);
    NodeId dest = to_self ? ls_.self() : random_other_node();
    if (t == SyncType::Setup && !to_self) {
      if (setups_[gid] >= 40) t = SyncType::Teardown;
    }
    if (t == SyncType::Setup && !to_self) ++setups_[gid];
    if (t == SyncType::Teardown && !to_self && setups_[gid] > 0) --setups_[gid];
    // Player GIDs passing by carry data 5..14, which no message of theirs does.
    const std::uint8_t data = player_gid ? static_cast<std::uint8_t>(uniform(5, 14))
                                         : static_cast<std::uint8_t>(uniform(0, 15));
    const Route route = chance(0.5) ? Route::YX : Route::XY;
    const Flit head = make_sync(t, gid, ls_.self(), dest, route, data);
    // Of pool GIDs only: a player waits for its GID's queued messages, and long worms of
    // its GID would starve it.
    if (control || player_gid || !chance(opt_.reduction_share)) {
      send_sync(p, head);
      return;
    }
    // A reduction message (a worm on the sync VC, docs/reduction-hardware.md) passing
    // through, or to the NI here: its flits follow the head under the VC's owner rule.
    ReductionDescriptor d;
    d.op = static_cast<ReduceOp>(uniform(0, 2));
    d.type = static_cast<ElementType>(uniform(0, 2));
    d.all = chance(0.5);
    d.count = static_cast<std::uint16_t>(uniform(0, 3));
    std::vector<std::uint32_t> words(d.words());
    for (std::uint32_t& w : words) w = static_cast<std::uint32_t>(rng_.bits());
    send_sync(p, make_reduction_message(head, d, words));
  }

  // ---- groups ---------------------------------------------------------------------------
  BarrierRegisterSetup random_setup(Player& pl) {
    BarrierRegisterSetup s;
    s.gid = pl.gid;
    const int max = ls_.params().max_children();
    pl.cs = chance(0.3);
    if (!pl.cs) {
      for (int slot = 0; slot < 4; ++slot) {
        if (!chance(0.6) || !ls_.mesh().has_neighbor(ls_.where(), port_at(slot + 1))) continue;
        const Route r = slot < 2 ? Route::XY : Route::YX;
        s.children.push_back(ChildLink{neighbour(slot + 1), r});
      }
      if (!chance(0.25)) s.parent = random_other_node();
      s.parent_route = chance(0.5) ? Route::YX : Route::XY;
      s.slot_at_parent = static_cast<std::uint8_t>(uniform(0, 3));
      s.transit = chance(0.1);
    } else {
      int n = static_cast<int>(uniform(0, static_cast<std::uint64_t>(max)));
      if (chance(0.05)) n = max + 1;  // too many: the NI keeps it in software
      for (int j = 0; j < n; ++j) {
        const NodeId child = chance(0.05) ? ls_.self() : random_other_node();
        s.children.push_back(ChildLink{child, chance(0.5) ? Route::YX : Route::XY});
      }
      if (!chance(0.3)) s.parent = random_other_node();
      s.parent_route = chance(0.5) ? Route::YX : Route::XY;
      s.slot_at_parent = kNoSlot;
      s.transit = chance(0.8);
    }
    return s;
  }

  // Every other player may reduce vectors (queue_other_sync keeps CS paths off its GID).
  static bool reducer(const Player& pl) { return (pl.gid - kFirstPlayerGid) % 2 == 1; }

  // A reduction a member's call could ask for: any operation of a random type, up to the
  // lanes' words (an empty vector too).
  ReductionDescriptor random_descriptor() {
    ReductionDescriptor d;
    d.type = static_cast<ElementType>(uniform(0, 2));
    d.op = static_cast<ReduceOp>(uniform(0, d.type == ElementType::Float32 ? 2 : 5));
    d.all = chance(0.5);
    const auto most = ls_.params().router.reduce_words / words_per_element(d.type);
    d.count = static_cast<std::uint16_t>(uniform(0, std::min<std::uint64_t>(most, 4)));
    return d;
  }

  // A player's sync message: a head alone, or in a reduction epoch a reduction message
  // (random words: the lockstep compares what the routers make of them).
  void send_player_sync(int port, const Flit& head, bool vector, const Player& pl) {
    if (!vector) {
      send_sync(port, head);
      return;
    }
    std::vector<std::uint32_t> words(pl.desc.words());
    for (std::uint32_t& w : words) w = static_cast<std::uint32_t>(rng_.bits());
    send_sync(port, make_reduction_message(head, pl.desc, words));
  }

  void start_epoch(Player& pl, std::uint64_t c) {
    pl.to_send.clear();
    // Routers reduce along BTM trees only (a CS path register refuses a vector).
    pl.reduce = ls_.params().router.reduce_words > 0 && reducer(pl) && !pl.cs && !pl.setup.transit && chance(0.75);
    if (pl.reduce) {
      pl.desc = random_descriptor();
      ++stats_.reduction_epochs;
    }
    if (pl.cs) {
      for (std::size_t j = 0; j < pl.setup.children.size(); ++j) pl.to_send.push_back(kNoSlot);
    } else {
      // A BTM child's slot is its direction at this router.
      for (const ChildLink& ch : pl.setup.children)
        for (int slot = 0; slot < 4; ++slot)
          if (ls_.mesh().has_neighbor(ls_.where(), port_at(slot + 1)) && ch.node == neighbour(slot + 1))
            pl.to_send.push_back(static_cast<std::uint8_t>(slot));
    }
    pl.to_send.push_back(kLocalSlot);
    pl.sent = 0;
    pl.st = St::Arrivals;
    pl.wake = c + uniform(1, 30);
  }

  void request(const RegCommand& cmd, std::function<void(bool, std::uint64_t)> done) {
    ops_.push_back({cmd, std::move(done)});
  }

  void request_free(std::size_t k, St after, std::uint64_t delay) {
    Player& pl = players_[k];
    pl.st = St::WaitOp;
    RegCommand cmd;
    cmd.op = RegOp::Free;
    cmd.gid = pl.gid;
    request(cmd, [this, k, after, delay](bool, std::uint64_t c) {
      Player& p = players_[k];
      ++stats_.frees;
      p.st = after;
      p.wake = c + delay;
    });
  }

  void play(std::size_t k, std::uint64_t c) {
    Player& pl = players_[k];
    if (c < pl.wake) return;
    switch (pl.st) {
      case St::Idle: {
        if (pl.rel_left > 0) return;  // its last batch is still identified by its GID
        pl.setup = random_setup(pl);
        pl.st = St::WaitOp;
        RegCommand cmd;
        cmd.op = RegOp::Program;
        cmd.setup = pl.setup;
        request(cmd, [this, k](bool ok, std::uint64_t when) {
          Player& p = players_[k];
          if (ok) {
            ++stats_.programs_ok;
            p.entry = ls_.model().registers().lookup(p.gid);
            start_epoch(p, when);
          } else {
            ++stats_.programs_failed;
            p.st = St::Soft;
            p.soft_left = static_cast<int>(uniform(0, 4));
            p.wake = when + uniform(1, 50);
          }
        });
        break;
      }
      case St::Soft: {
        // The group lives in node memory: its messages pass on to the NI.
        if (pl.soft_left-- > 0) {
          const SyncType t = chance(0.5) ? SyncType::Arrive : SyncType::Release;
          const int port = static_cast<int>(uniform(0, 4));
          send_sync(port, make_sync(t, pl.gid, ls_.self(), ls_.self(),
                                    chance(0.5) ? Route::YX : Route::XY,
                                    static_cast<std::uint8_t>(uniform(0, 4))));
          pl.wake = c + uniform(1, 40);
        } else {
          pl.st = St::Dead;  // until those messages are surely gone
          pl.wake = c + 400;
        }
        break;
      }
      case St::Arrivals: {
        if (pl.to_send.empty()) {
          pl.st = St::WaitUp;
          break;
        }
        const int expected = static_cast<int>(pl.setup.children.size()) + 1;
        if (pl.sent <= 3 && pl.sent < expected && c > last_abort_ + 600 && chance(0.002)) {
          // Freed mid-epoch: the arrivals still in buffers go on to the NI.
          last_abort_ = c;
          ++stats_.aborts;
          request_free(k, St::Dead, 400);
          break;
        }
        if (!chance(0.3)) break;
        const std::size_t i = uniform(0, pl.to_send.size() - 1);
        const std::uint8_t slot = pl.to_send[i];
        pl.to_send.erase(pl.to_send.begin() + static_cast<std::ptrdiff_t>(i));
        int port;
        if (slot == kLocalSlot) port = 0;
        else if (slot == kNoSlot) port = static_cast<int>(uniform(1, 4));
        else port = slot + 1;
        send_player_sync(port, make_sync(SyncType::Arrive, pl.gid, ls_.self(), ls_.self(),
                                         chance(0.5) ? Route::YX : Route::XY, slot),
                         pl.reduce, pl);
        ++pl.sent;
        break;
      }
      case St::ReleaseDue: {
        if (rel_out_[static_cast<std::size_t>(pl.entry)] > 0) break;  // one batch per outbox
        const int n = static_cast<int>(pl.setup.children.size()) + 1;
        pl.rel_left = n;
        rel_out_[static_cast<std::size_t>(pl.entry)] += n;
        batch_entry_[pl.gid] = pl.entry;
        pl.local_rel_seen = false;
        const int port = pl.setup.parent ? static_cast<int>(uniform(1, 4)) : 0;
        // The root's own release carries nothing (the result is in its lane 4 already);
        // an allreduce's result comes down from the parent with its release.
        send_player_sync(port, make_sync(SyncType::Release, pl.gid, ls_.self(), ls_.self(),
                                         chance(0.5) ? Route::YX : Route::XY, 0),
                         pl.reduce && pl.desc.all && pl.setup.parent.has_value(), pl);
        pl.st = St::WaitReleases;
        break;
      }
      case St::WaitReleases: {
        if (pl.rel_left == 0) {
          if (chance(0.75)) {
            start_epoch(pl, c);
          } else {
            request_free(k, St::Idle, uniform(1, 100));
          }
        } else if (pl.local_rel_seen && chance(0.02)) {
          // Software frees while the children's releases still wait for their ports.
          ++stats_.early_frees;
          request_free(k, St::Draining, 0);
        }
        break;
      }
      case St::Draining:
        if (pl.rel_left == 0) {
          pl.st = St::Idle;
          pl.wake = c + uniform(1, 50);
        }
        break;
      case St::Dead:
        // Messages of the group still queued upstream keep it dead a while longer.
        if (queued(pl.gid)) {
          pl.wake = c + 300;
        } else {
          pl.st = St::Idle;
        }
        break;
      case St::WaitOp:
      case St::WaitUp:
        break;
    }
  }

  // Registers programmed and freed by other software: they fill the CAM.
  void fill(std::uint64_t) {
    for (int i = 0; i < kFillers; ++i) {
      Filler& f = fillers_[static_cast<std::size_t>(i)];
      const std::uint8_t gid = static_cast<std::uint8_t>(kFirstFillerGid + i);
      if (!f.programmed && chance(0.002)) {
        RegCommand cmd;
        cmd.op = RegOp::Program;
        cmd.setup.gid = gid;
        cmd.setup.transit = chance(0.3);
        if (chance(0.5)) cmd.setup.parent = random_other_node();
        f.programmed = true;  // until the answer says otherwise
        request(cmd, [this, i](bool ok, std::uint64_t) {
          fillers_[static_cast<std::size_t>(i)].programmed = ok;
          if (ok) ++stats_.programs_ok;
          else ++stats_.programs_failed;
        });
      } else if (f.programmed && chance(0.003)) {
        RegCommand cmd;
        cmd.op = RegOp::Free;
        cmd.gid = gid;
        f.programmed = false;
        request(cmd, [this](bool, std::uint64_t) { ++stats_.frees; });
      }
    }
  }

  // ---- the upstream side of every input ------------------------------------------------
  void present_flits(Stimulus& s, std::uint64_t c) {
    for (auto it = up_pending_.begin(); it != up_pending_.end();) {
      if (it->cycle <= c) {
        ++up_credit_[it->port][it->vc];
        it = up_pending_.erase(it);
      } else {
        ++it;
      }
    }
    for (int p = 0; p < ls_.inputs(); ++p) {
      if (!chance(opt_.load)) continue;
      int cand[kRtlVcs];
      int n = 0;
      for (int v = 0; v < kRtlVcs; ++v) {
        if (q_[p][v].empty()) continue;
        const bool room = injection(p) ? ls_.buffered(p, v) < ls_.depth(v) : up_credit_[p][v] > 0;
        if (room) cand[n++] = v;
      }
      if (n == 0) continue;
      const int v = cand[uniform(0, static_cast<std::uint64_t>(n - 1))];
      s.in[p] = q_[p][v].front();
      q_[p][v].pop_front();
      if (!injection(p)) --up_credit_[p][v];
      if (p >= kPorts) ++stats_.channel_flits_in;
    }
  }

  struct UpCredit {
    std::uint64_t cycle;
    int port;
    int vc;
  };

  Lockstep ls_;
  BenchOptions opt_;
  Random rng_;
  BenchStats stats_;
  std::deque<Flit> q_[kRtlInputs][kRtlVcs];
  int up_credit_[kPorts][kRtlVcs]{};
  std::vector<UpCredit> up_pending_;
  std::multiset<std::uint64_t> down_[kPorts][kRtlVcs];
  std::uint64_t stall_until_[kPorts]{};
  std::vector<Player> players_;
  std::vector<Filler> fillers_;
  std::deque<PendingOp> ops_;
  std::vector<int> rel_out_;            // per register: releases waiting in its outbox
  std::map<std::uint8_t, int> batch_entry_;
  std::map<std::uint8_t, int> setups_;  // CS paths opened minus closed, per GID
  std::uint64_t worm_id_ = 0;
  std::uint64_t last_abort_ = 0;
};

}  // namespace

BenchResult run_random_bench(std::unique_ptr<RtlRouter> rtl, const BenchOptions& opt) {
  Bench b(std::move(rtl), opt);
  return b.run();
}

}  // namespace meshsync::rtl

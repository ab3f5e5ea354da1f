#include "rtl_mesh_block.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "model/core/injection_channel.hpp"
#include "rtl_mesh_models.hpp"  // generated from rtl/configurations.txt (use "mesh")

namespace meshsync::rtl {

namespace ff = flit_format;

namespace {

// A worm's head carries no source and no packet id, so worms to one node cannot be told
// apart at the boundary by their bits. The block writes a tag, numbered per destination,
// into bits the routers do not read, and recovers the worm from it:
// - an ordinary worm's head: bits 26..14 (a sync message's type, gid and data; the router
//   reads them only with the sync bit set). Bit 27 stays 0: it is the multicast flag.
// - every address flit of a multidestination worm: bits 20..14, which the format leaves
//   0. Each destination's copy starts with its own address flit, promoted to head by the
//   router before it, so each copy carries its own tag.
constexpr ff::Field kWormTag{14, 13};
constexpr ff::Field kAddressTag{14, 7};
// Keys of a node's worms in flight: the address tags apart from the worm tags.
constexpr std::uint32_t kAddressKey = 1u << 31;

// The bits of `f` as the block carries them: with `tag` where `f` has a tag field.
std::uint32_t tagged(const Flit& f, const MeshShape& mesh, std::uint32_t tag) {
  const std::uint32_t bits = encode_flit(f, mesh);
  if (f.mcast && f.addr) return (bits & ~kAddressTag.put(~0u)) | kAddressTag.put(tag);
  if (f.head && !f.sync) return (bits & ~kWormTag.put(~0u)) | kWormTag.put(tag);
  return bits;
}
// The key of the copy that a head ejected with `bits` begins.
std::uint32_t key_of_head(std::uint32_t bits) {
  return ff::kMcast.get(bits) ? kAddressKey | kAddressTag.get(bits) : kWormTag.get(bits);
}

template <class Model>
MeshBuild make_mesh_build(const char* name, const char* verilog_params, int threads) {
  // Tp is the link's, not a router parameter.
  std::istringstream in(verilog_params);
  std::string router_params;
  int tp = 5;
  for (std::string item; in >> item;) {
    if (item.rfind("Tp=", 0) == 0) tp = std::stoi(item.substr(3));
    else router_params += item + " ";
  }
  MeshParams p;
  p.router = parse_rtl_params(name, router_params);
  p.tp = tp;
  p.threads = threads;
  return MeshBuild{p, [p]() -> std::unique_ptr<MeshBlock> {
                     return std::make_unique<VerilatedMeshBlock<Model>>(p);
                   }};
}

}  // namespace

std::vector<MeshBuild>& mesh_builds() {
  static std::vector<MeshBuild> builds{
#define MESHSYNC_MESH_BUILD(n, cls, params) make_mesh_build<cls>(n, params, MESHSYNC_MESH_THREADS),
      MESHSYNC_RTL_MODELS(MESHSYNC_MESH_BUILD)
#undef MESHSYNC_MESH_BUILD
  };
  return builds;
}

std::string describe(const MeshParams& p) {
  return p.router.name + " (" + std::to_string(p.router.mesh_w) + "x" + std::to_string(p.router.mesh_h) +
         ", tp " + std::to_string(p.tp) + ", " + describe_router(p.router) + ")";
}

void add_mesh_build(MeshBuild b) { mesh_builds().push_back(std::move(b)); }

const MeshBuild& find_mesh_build(const NetworkConfig& cfg, const std::string& name) {
  require_rtl_features(cfg);
  if (cfg.router.unicast_vcs != 1)
    throw ConfigError("the RTL mesh block (--rtl mesh, --lockstep mesh) injects on one unicast VC; run with --vcs 1, "
                      "or put RTL routers with unicast VCs in the SystemC mesh (--rtl all)");
  if (cfg.router.ni_ports != 1)
    throw ConfigError("the RTL mesh block (--rtl mesh, --lockstep mesh) has one-port NIs; run with --ni one-port, "
                      "or put all-port RTL routers in the SystemC mesh (--rtl all)");
  std::string have;
  for (const MeshBuild& b : mesh_builds()) {
    const RtlParams& r = b.params.router;
    if ((name.empty() || r.name == name) && matches(r, cfg) && cfg.mesh.width == r.mesh_w && cfg.mesh.height == r.mesh_h &&
        static_cast<int>(cfg.timing.tp) == b.params.tp)
      return b;
    have += (have.empty() ? "" : "; ") + describe(b.params);
  }
  const RtlParams run = router_params(cfg);
  throw ConfigError("no Verilated RTL mesh matches this run (" + std::to_string(cfg.mesh.width) + "x" +
                    std::to_string(cfg.mesh.height) + ", tp " + std::to_string(cfg.timing.tp) + ", " +
                    describe_router(run, false) + "); built: " + (have.empty() ? "none" : have) +
                    " (configure with -DMESHSYNC_RTL_MESH=ON; add a configuration with use mesh "
                    "to rtl/configurations.txt for other sizes)");
}

// One node of the block, as the NetworkCore sees it: the NI's injection channel and the
// register port. Flits and credits between routers never leave the block.
class BlockSite final : public ExternalRouter {
 public:
  BlockSite(RtlMeshBlock& block, NodeId id) : block_(block), id_(id) {}

  std::uint64_t inject(const Flit& f, std::uint64_t cycle, int channel) override {
    // The mesh block's boundary knows the worm VCs 0 and 3 only (docs/tree-multicast.md).
    if (f.tree) throw ConfigError("tree multicast worms need model or single RTL routers, not the RTL mesh block");
    // find_mesh_build refuses all-port runs: the mesh top's NIs are one-port.
    if (channel != 0) throw std::logic_error("the RTL mesh block has one injection channel per node");
    local_.push(f, cycle);
    if (block_.shadow_) block_.shadow_->inject(id_, f, cycle);
    return cycle > 0 ? cycle - 1 : 0;
  }
  std::uint64_t receive(Port, const Flit&, std::uint64_t) override { throw inside(); }
  bool carries_tree_worms() const override { return false; }
  std::uint64_t return_credit(Port, int, std::uint64_t) override { throw inside(); }
  std::uint64_t program_register(const BarrierRegisterSetup& s, std::uint64_t cycle) override {
    reg_ = Write{cycle, RegOp::Program, s, s.gid};
    return cycle;
  }
  std::uint64_t free_register(std::uint8_t gid, std::uint64_t cycle) override {
    reg_ = Write{cycle, RegOp::Free, {}, gid};
    return cycle;
  }
  bool register_ok() const override { return reg_ok_; }

  // The site's own inputs; the block keeps itself stepped while any node is busy.
  std::uint64_t next_wake(std::uint64_t c) const override {
    std::uint64_t next = kNever;
    if (!local_.empty()) next = std::min(next, std::max(c + 1, local_.front_cycle() - 1));
    if (reg_) next = std::min(next, std::max(c + 1, reg_->cycle));
    return next;
  }
  void describe_stuck(std::vector<std::string>& out) const override {
    const std::string me = "RTL mesh node " + block_.where(id_);
    if (!local_.empty()) out.push_back(me + ": " + std::to_string(local_.size()) + " flit(s) waiting at the NI");
    if (id_ == 0 && !block_.block_->all_idle()) out.push_back("RTL mesh: not idle (flits or messages inside the block)");
  }

 private:
  friend class RtlMeshBlock;
  struct Write {
    std::uint64_t cycle;
    RegOp op;
    BarrierRegisterSetup setup;
    std::uint8_t gid;
  };
  static std::logic_error inside() {
    return std::logic_error("co-simulation: the RTL mesh's links are inside the block");
  }

  RtlMeshBlock& block_;
  NodeId id_;
  InjectionChannel local_;
  std::optional<Write> reg_;
  Write written_{};  // the write presented this cycle
  bool reg_ok_ = false;
};

// Per node: the copies presented towards it, by key (each the flits that node is due,
// with the tags they were presented with), and the copy its Local output is ejecting on
// each worm VC (two worms, one per worm VC, may take turns there); per source, the copies
// of the worm it is presenting (a multidestination worm's grow by an address flit each).
struct RtlMeshBlock::Worms {
  struct Due {
    Flit flit;
    std::uint32_t bits;  // as presented, tags included
  };
  struct Copy {
    NodeId dest;
    std::uint32_t key;
  };
  std::vector<std::unordered_map<std::uint32_t, std::deque<Due>>> inflight;
  std::vector<std::uint32_t> next_worm_tag, next_address_tag;
  std::vector<std::array<std::uint32_t, 2>> ejecting;  // key, by worm VC (kWormVc, kSnakeVc)
  std::vector<std::vector<Copy>> sending;

  // A fresh copy towards `dest`: its key, with the tag that goes into the flit.
  std::uint32_t open(NodeId dest, bool address, std::uint32_t& tag, const std::string& where) {
    const ff::Field& field = address ? kAddressTag : kWormTag;
    tag = (address ? next_address_tag : next_worm_tag)[dest]++ & field.mask();
    const std::uint32_t key = (address ? kAddressKey : 0) | tag;
    if (inflight[dest].count(key))
      throw LockstepError("RTL mesh: more than " + std::to_string(field.mask() + 1) + (address ? " multicast" : "") +
                          " worms in flight to node " + where);
    return key;
  }
};

RtlMeshBlock::RtlMeshBlock(NetworkCore& net, bool lockstep, const std::string& config)
    : net_(net), mesh_(net.mesh()), block_(find_mesh_build(net.config(), config).make()), worms_(new Worms) {
  const int nodes = mesh_.nodes();
  for (int n = 0; n < nodes; ++n) sites_.push_back(std::make_unique<BlockSite>(*this, static_cast<NodeId>(n)));
  Worms& w = *worms_;
  w.inflight.resize(static_cast<std::size_t>(nodes));
  w.next_worm_tag.assign(static_cast<std::size_t>(nodes), 0);
  w.next_address_tag.assign(static_cast<std::size_t>(nodes), 0);
  w.ejecting.assign(static_cast<std::size_t>(nodes), {0, 0});
  w.sending.assign(static_cast<std::size_t>(nodes), {});
  if (lockstep) {
    shadow_ = std::make_unique<NetworkCore>(net.config());
    shadow_->set_sink(this);
  }
  block_->reset();
  net.set_external(this);
}

RtlMeshBlock::~RtlMeshBlock() = default;

ExternalRouter* RtlMeshBlock::at(NodeId n) { return sites_[n].get(); }

std::string RtlMeshBlock::where(NodeId n) const {
  const Coord c = mesh_.coord(n);
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}

void RtlMeshBlock::differ(std::uint64_t c, NodeId n, const std::string& what) const {
  throw LockstepError("lockstep: cycle " + std::to_string(c) + " node " + where(n) + " " + what);
}

void RtlMeshBlock::on_eject(NodeId node, const Flit& f, std::uint64_t cycle) {
  shadow_out_.push_back({cycle, node, f});
}

void RtlMeshBlock::catch_up_shadow(std::uint64_t c) {
  for (;;) {
    const std::uint64_t k = shadow_->next_event_cycle();
    if (k == kNever || k > c) return;
    try {
      shadow_->run_cycle(k);
    } catch (const std::logic_error& e) {
      throw LockstepError("lockstep: cycle " + std::to_string(k) + " the model raised an error the RTL did not: " +
                          e.what());
    }
  }
}

// The inputs of cycle c: register writes due, and each node's next flit when its Local
// input has room (local_ready), one cycle before it enters the buffer.
void RtlMeshBlock::present(std::uint64_t c) {
  Worms& w = *worms_;
  written_.clear();
  const int max_children = block_->params().router.max_children();
  for (auto& s : sites_) {
    if (s->reg_ && s->reg_->cycle <= c) {
      RtlInputs in;
      if (s->reg_->op == RegOp::Program) {
        set_program(in, s->reg_->setup, mesh_, max_children);
      } else {
        in.reg_op = RegOp::Free;
        in.reg_gid = s->reg_->gid;
      }
      block_->write_register(s->id_, in);
      s->written_ = *s->reg_;
      s->reg_.reset();
      written_.push_back(s->id_);
    }
    if (s->local_.empty() || s->local_.front_cycle() > c + 1) continue;
    const Flit& f = s->local_.front();
    const int vc = f.vc();
    if (!block_->local_ready(s->id_, vc)) continue;
    std::uint32_t bits = encode_flit(f, mesh_);
    if (!f.sync) {
      // A worm head, or an address flit after it: a copy towards its destination, which
      // starts there (promoted to head, as the router before that destination does).
      auto& copies = w.sending[s->id_];
      if (f.head) copies.clear();
      std::uint32_t tag = 0;
      if (f.head || (f.mcast && f.addr)) {
        const std::uint32_t key = w.open(f.dest, f.mcast, tag, where(f.dest));
        Flit first = f;
        first.head = true;
        w.inflight[f.dest][key].push_back({first, tagged(first, mesh_, tag)});
        bits = tagged(f, mesh_, tag);
        // Copies opened before this address flit carry it as it is.
        for (const auto& c : copies) w.inflight[c.dest][c.key].push_back({f, bits});
        copies.push_back({f.dest, key});
      } else {
        for (const auto& c : copies) w.inflight[c.dest][c.key].push_back({f, bits});
      }
    }
    block_->inject(s->id_, vc, bits);
    s->local_.pop();
  }
  if (!written_.empty()) block_->settle();
}

// The model flit of a flit the block ejected at node n.
Flit RtlMeshBlock::recover(NodeId n, int vc, std::uint32_t bits, std::uint64_t c) {
  Worms& w = *worms_;
  const auto unknown = [&]() {
    return LockstepError("RTL mesh: node " + where(n) + " ejected vc " + std::to_string(vc) + " " +
                         describe_flit(bits) + " in cycle " + std::to_string(c) + ", a flit nobody sent");
  };
  if (is_sync_head(bits)) {
    // Made by a barrier unit, or sent to n: its bits are all it has.
    const Flit f = decode_sync(bits, mesh_, n);
    if (f.vc() != vc) throw unknown();
    return f;
  }
  if (!is_worm_vc(vc)) throw unknown();
  // Flits follow their head: the Local output's worm VC is held until the tail.
  std::uint32_t& ejecting = w.ejecting[n][vc == kSnakeVc];
  if (ff::kHead.get(bits)) ejecting = key_of_head(bits);
  const auto it = w.inflight[n].find(ejecting);
  if (it == w.inflight[n].end() || it->second.empty()) throw unknown();
  const Worms::Due due = it->second.front();
  if (due.bits != bits || due.flit.vc() != vc) throw unknown();
  it->second.pop_front();
  if (due.flit.tail) w.inflight[n].erase(it);
  return due.flit;
}

bool RtlMeshBlock::step(std::uint64_t c, const std::vector<NodeId>&, RouterLinks& links) {
  if (started_ && c <= last_) throw std::logic_error("co-simulation: the RTL mesh stepped twice in one cycle");
  started_ = true;
  last_ = c;
  if (shadow_) catch_up_shadow(c);
  present(c);
  bool moved = false;
  rtl_out_.clear();
  if (block_->any_ejected()) {
    for (int n = 0; n < mesh_.nodes(); ++n) {
      if (!block_->ejected(n)) continue;
      const NodeId id = static_cast<NodeId>(n);
      const Flit f = recover(id, block_->ejected_vc(n), block_->ejected_flit(n), c);
      rtl_out_.push_back({c + 1, id, f});
      links.flit_out(id, index(Port::Local), f, c);
      moved = true;
    }
  }
  for (NodeId n : written_) sites_[n]->reg_ok_ = block_->reg_ok(n);
  if (shadow_) {
    compare(c, rtl_out_);
  } else if (block_->any_error()) {
    for (int n = 0; n < mesh_.nodes(); ++n)
      if (block_->error(n))
        throw LockstepError("RTL mesh: node " + where(static_cast<NodeId>(n)) + " raised error_o in cycle " +
                            std::to_string(c));
  }
  block_->edge();
  ++stepped_;
  // While anything is inside the block, it runs every cycle (node 0's wake-up stands for
  // all); the sites wake it for their own inputs.
  if (!block_->all_idle()) net_.schedule(0, c + 1);
  return moved;
}

void RtlMeshBlock::compare(std::uint64_t c, const std::vector<Ejection>& rtl) {
  ++compared_;
  // Register writes act after the model's cycle, as the NI's do.
  for (NodeId n : written_) {
    const BlockSite& s = *sites_[n];
    if (s.written_.op == RegOp::Program) shadow_->program_register(n, s.written_.setup, c);
    else shadow_->free_register(n, s.written_.gid, c);
    const bool want = shadow_->register_ok(n);
    if (want != s.reg_ok_)
      differ(c, n, std::string("reg_ok (") + (s.written_.op == RegOp::Program ? "program" : "free") +
                       "): expected " + std::to_string(want) + ", actual " + std::to_string(s.reg_ok_));
  }
  // The model's ejections of this cycle (delivered in c + 1), in node order like the RTL's.
  std::vector<Ejection> model;
  for (const Ejection& e : shadow_out_) {
    if (e.cycle < c + 1) differ(e.cycle - 1, e.node, "ejection: expected vc " + std::to_string(e.flit.vc()) + " " +
                                                         describe_flit(encode_flit(e.flit, mesh_)) +
                                                         ", actual <none> (the RTL mesh was idle)");
    if (e.cycle == c + 1) model.push_back(e);
  }
  shadow_out_.erase(std::remove_if(shadow_out_.begin(), shadow_out_.end(),
                                   [&](const Ejection& e) { return e.cycle <= c + 1; }),
                    shadow_out_.end());
  std::sort(model.begin(), model.end(), [](const Ejection& a, const Ejection& b) { return a.node < b.node; });
  const auto text = [&](const Flit* f) {
    if (!f) return std::string("<none>");
    return "vc " + std::to_string(f->vc()) + " " + describe_flit(encode_flit(*f, mesh_)) +
           (f->sync ? std::string() : " packet " + std::to_string(f->packet));
  };
  std::size_t i = 0, j = 0;
  while (i < model.size() || j < rtl.size()) {
    const NodeId n = i == model.size() ? rtl[j].node : j == rtl.size() ? model[i].node
                                                                         : std::min(model[i].node, rtl[j].node);
    const Flit* m = i < model.size() && model[i].node == n ? &model[i++].flit : nullptr;
    const Flit* r = j < rtl.size() && rtl[j].node == n ? &rtl[j++].flit : nullptr;
    const bool same = m && r && m->vc() == r->vc() && encode_flit(*m, mesh_) == encode_flit(*r, mesh_) &&
                      (m->sync || m->packet == r->packet);
    if (!same) differ(c, n, "ejection: expected " + text(m) + ", actual " + text(r));
  }
  const NetworkConfig& cfg = net_.config();
  for (int n = 0; n < mesh_.nodes(); ++n) {
    const RouterCore& core = shadow_->router(static_cast<NodeId>(n));
    for (int v = 0; v < cfg.router.vcs(); ++v) {
      const std::uint32_t depth = cfg.router.depth(v);
      const bool fits = core.buffered(Port::Local, v) < depth;
      if (fits != block_->local_ready(n, v))
        differ(c, static_cast<NodeId>(n), "local_ready VC " + std::to_string(v) + ": expected " +
                                              std::to_string(fits) + ", actual " +
                                              std::to_string(block_->local_ready(n, v)));
    }
    if (block_->error(n)) differ(c, static_cast<NodeId>(n), "error: expected 0, actual 1");
  }
}

}  // namespace meshsync::rtl

#include "rtl_mesh_block.hpp"

#include <algorithm>
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
// into the head's type, gid and data fields (bits 27..14), which only sync messages use
// (the router reads them only with the sync bit set), and recovers the worm from it.
constexpr int kTagLsb = 14;
constexpr int kTagBits = 14;
constexpr std::uint32_t kTagMask = ((1u << kTagBits) - 1) << kTagLsb;

bool is_worm_head(std::uint32_t bits) { return ff::kHead.get(bits) && !ff::kSync.get(bits); }
std::uint32_t untagged(std::uint32_t bits) { return is_worm_head(bits) ? bits & ~kTagMask : bits; }

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
                    describe_router(run) + "); built: " + (have.empty() ? "none" : have) +
                    " (configure with -DMESHSYNC_RTL_MESH=ON; add a configuration with use mesh "
                    "to rtl/configurations.txt for other sizes)");
}

// One node of the block, as the NetworkCore sees it: the NI's injection channel and the
// register port. Flits and credits between routers never leave the block.
class BlockSite final : public ExternalRouter {
 public:
  BlockSite(RtlMeshBlock& block, NodeId id) : block_(block), id_(id) {}

  std::uint64_t inject(const Flit& f, std::uint64_t cycle) override {
    local_.push(f, cycle);
    if (block_.shadow_) block_.shadow_->inject(id_, f, cycle);
    return cycle > 0 ? cycle - 1 : 0;
  }
  std::uint64_t receive(Port, const Flit&, std::uint64_t) override { throw inside(); }
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

// Per node: the worms presented towards it, by tag, and the one its Local output is
// ejecting; per source, the worm it is presenting.
struct RtlMeshBlock::Worms {
  std::vector<std::unordered_map<std::uint32_t, std::deque<Flit>>> inflight;
  std::vector<std::uint32_t> next_tag;
  std::vector<std::uint32_t> ejecting;  // tag
  std::vector<std::pair<NodeId, std::uint32_t>> sending;
};

RtlMeshBlock::RtlMeshBlock(NetworkCore& net, bool lockstep, const std::string& config)
    : net_(net), mesh_(net.mesh()), block_(find_mesh_build(net.config(), config).make()), worms_(new Worms) {
  const int nodes = mesh_.nodes();
  for (int n = 0; n < nodes; ++n) sites_.push_back(std::make_unique<BlockSite>(*this, static_cast<NodeId>(n)));
  Worms& w = *worms_;
  w.inflight.resize(static_cast<std::size_t>(nodes));
  w.next_tag.assign(static_cast<std::size_t>(nodes), 0);
  w.ejecting.assign(static_cast<std::size_t>(nodes), 0);
  w.sending.assign(static_cast<std::size_t>(nodes), {0, 0});
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
  const int max_children = block_->params().router.max_children;
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
      if (f.head) {
        const std::uint32_t tag = w.next_tag[f.dest]++ & ((1u << kTagBits) - 1);
        auto& slot = w.inflight[f.dest];
        if (slot.count(tag))
          throw LockstepError("RTL mesh: more than " + std::to_string(1u << kTagBits) + " worms in flight to node " +
                              where(f.dest));
        slot[tag].push_back(f);
        w.sending[s->id_] = {f.dest, tag};
        bits = (bits & ~kTagMask) | (tag << kTagLsb);
      } else {
        const auto [dest, tag] = w.sending[s->id_];
        w.inflight[dest][tag].push_back(f);
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
  if (vc != kWormVc) throw unknown();
  // Body flits follow their head: the Local output's worm VC is held until the tail.
  if (ff::kHead.get(bits)) w.ejecting[n] = (bits & kTagMask) >> kTagLsb;
  const auto it = w.inflight[n].find(w.ejecting[n]);
  if (it == w.inflight[n].end() || it->second.empty()) throw unknown();
  const Flit f = it->second.front();
  if (encode_flit(f, mesh_) != untagged(bits)) throw unknown();
  it->second.pop_front();
  if (f.tail) w.inflight[n].erase(it);
  return f;
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
    for (int v = 0; v < kRtlVcs; ++v) {
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

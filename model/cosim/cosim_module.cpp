// The co-simulation module's entry point (cosim_module.hpp): RTL routers at positions of
// the mesh (RtlMesh) or the whole mesh as one Verilated block (RtlMeshBlock).
#include "cosim_module.hpp"

#include <memory>

#include "rtl_mesh.hpp"
#include "rtl_mesh_block.hpp"

namespace meshsync::rtl {

namespace {

class SitesRun final : public CosimRun {
 public:
  SitesRun(NetworkCore& net, const CosimRequest& r) : lockstep_(r.lockstep.size()) {
    CosimOptions opt;
    opt.rtl = r.rtl;
    opt.lockstep = r.lockstep;
    opt.trace = r.trace;
    opt.threads = r.threads;
    mesh_ = std::make_unique<RtlMesh>("rtl", net, opt);
  }
  std::size_t routers() const override { return mesh_->sites(); }
  std::size_t lockstep() const override { return lockstep_; }
  std::string config() const override { return mesh_->params().name; }
  std::uint64_t cycles_compared() const override { return mesh_->cycles_compared(); }
  bool block() const override { return false; }

 private:
  std::unique_ptr<RtlMesh> mesh_;
  std::size_t lockstep_;
};

class BlockRun final : public CosimRun {
 public:
  BlockRun(NetworkCore& net, const CosimRequest& r)
      : block_(std::make_unique<RtlMeshBlock>(net, r.block_lockstep)), routers_(static_cast<std::size_t>(net.mesh().nodes())) {}
  std::size_t routers() const override { return routers_; }
  std::size_t lockstep() const override { return block_->lockstep() ? routers_ : 0; }
  std::string config() const override { return block_->params().router.name; }
  // The block's boundary is compared for all its routers at once, each cycle it runs.
  std::uint64_t cycles_compared() const override { return block_->cycles_compared() * routers_; }
  bool block() const override { return true; }

 private:
  std::unique_ptr<RtlMeshBlock> block_;
  std::size_t routers_;
};

}  // namespace

}  // namespace meshsync::rtl

extern "C" meshsync::rtl::CosimRun* meshsync_attach_rtl(meshsync::NetworkCore& net,
                                                        const meshsync::rtl::CosimRequest& r) {
  using namespace meshsync::rtl;
  if (r.block) return new BlockRun(net, r);
  return new SitesRun(net, r);
}

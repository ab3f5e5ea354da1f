// The whole mesh as one Verilated block (`--rtl mesh`, docs/cosim.md "The mesh as one
// block"): every position of the NetworkCore is a site of the block; the NIs and the
// software stay as they are and see the block at its boundary only (injection with
// local_ready, ejection, the register port). The links are inside the block, so the core
// never hands a site a flit or a credit. With lockstep, a second NetworkCore (the model)
// runs beside the block on the same injections and register writes, and every cycle the
// boundary is compared: every node's ejected flit, local_ready, reg_ok and error.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mesh_block.hpp"
#include "model/core/network_core.hpp"
#include "rtl_mesh.hpp"

namespace meshsync::rtl {

struct MeshBuild {
  MeshParams params;
  std::function<std::unique_ptr<MeshBlock>()> make;
};

// The mesh configurations of this program (use "mesh" in rtl/configurations.txt), then
// any added (tests add a broken copy).
std::vector<MeshBuild>& mesh_builds();
void add_mesh_build(MeshBuild b);
// The one named `name` (empty: the first) whose size, tp and router parameters equal the
// run's; throws ConfigError with one line naming the run's parameters and the meshes
// there are.
const MeshBuild& find_mesh_build(const NetworkConfig& cfg, const std::string& name = "");
// "mesh8x8 (8x8, tp 5, buffer-depth 16, ...)".
std::string describe(const MeshParams& p);

class BlockSite;

class RtlMeshBlock final : public ExternalRouters, private NetworkSink {
 public:
  // `config`: a mesh configuration's name; empty: the one that matches the run.
  RtlMeshBlock(NetworkCore& net, bool lockstep, const std::string& config = "");
  ~RtlMeshBlock() override;

  ExternalRouter* at(NodeId n) override;
  bool step(std::uint64_t cycle, const std::vector<NodeId>& due, RouterLinks& links) override;

  const MeshParams& params() const { return block_->params(); }
  bool lockstep() const { return shadow_ != nullptr; }
  std::uint64_t cycles_stepped() const { return stepped_; }
  std::uint64_t cycles_compared() const { return compared_; }

 private:
  friend class BlockSite;
  struct Worms;
  struct Ejection {
    std::uint64_t cycle;  // delivery cycle
    NodeId node;
    Flit flit;
  };
  // The model's ejections (lockstep).
  void on_eject(NodeId node, const Flit& f, std::uint64_t cycle) override;
  void catch_up_shadow(std::uint64_t c);
  void present(std::uint64_t c);
  Flit recover(NodeId n, int vc, std::uint32_t bits, std::uint64_t c);
  void compare(std::uint64_t c, const std::vector<Ejection>& rtl);
  [[noreturn]] void differ(std::uint64_t c, NodeId n, const std::string& what) const;
  std::string where(NodeId n) const;

  NetworkCore& net_;
  const MeshShape& mesh_;
  std::unique_ptr<MeshBlock> block_;
  std::unique_ptr<Worms> worms_;
  std::vector<std::unique_ptr<BlockSite>> sites_;
  std::unique_ptr<NetworkCore> shadow_;
  std::vector<Ejection> shadow_out_;
  std::vector<Ejection> rtl_out_;
  std::vector<NodeId> written_;  // register writes presented this cycle
  std::uint64_t stepped_ = 0, compared_ = 0;
  std::uint64_t last_ = 0;
  bool started_ = false;
};

}  // namespace meshsync::rtl

// The router's parameter checks at elaboration: a router that cannot be built is refused
// by Verilator and Yosys alike, with the parameter's name. The ranges are the model's
// (model/core/parameters.hpp, which says why); scripts/check-rtl-parameters tries a bad
// value of each.
module meshsync_parameter_check #(
  parameter int unsigned MeshW = 8,
  parameter int unsigned MeshH = 8,
  `include "meshsync_router_params.svh"
) ();

  if (MeshW < 1 || MeshW > (1 << meshsync_pkg::CoordW)) begin : gen_check_mesh_w
    $error("MeshW must be 1 to 128 (the flit's 7-bit x coordinate)");
  end
  if (MeshH < 1 || MeshH > (1 << meshsync_pkg::CoordW)) begin : gen_check_mesh_h
    $error("MeshH must be 1 to 128 (the flit's 7-bit y coordinate)");
  end
  if (FlitW != 32) begin : gen_check_flit_w
    $error("FlitW must be 32 (the contract's flit format)");
  end
  if (BufferDepth < 1) begin : gen_check_buffer_depth
    $error("BufferDepth must be at least 1 flit");
  end
  if (SyncBufferDepth < 1) begin : gen_check_sync_buffer_depth
    $error("SyncBufferDepth must be at least 1 flit");
  end
  if (TreeBufferDepth == 1 || TreeBufferDepth > 65535) begin : gen_check_tree_depth
    $error("TreeBufferDepth must be 0 (no tree VC) or 2 to 65535 flits (a tree worm's head and a word)");
  end
  if (PathWorms > 1) begin : gen_check_path_worms
    $error("PathWorms must be 0 (unicast worms only) or 1 (multidestination worms)");
  end
  if (NumRegs > 256) begin : gen_check_num_regs
    $error("NumRegs must be at most 256 (the 8-bit GID space)");
  end
  if (MaxChildren < 4 || MaxChildren > 64) begin : gen_check_max_children
    $error("MaxChildren must be 4 to 64 (a BTM member has up to 4 children)");
  end
  if (Trn < 1) begin : gen_check_trn
    $error("Trn must be at least 1 cycle");
  end
  if (Trm < 1) begin : gen_check_trm
    $error("Trm must be at least 1 cycle");
  end
  if (ReduceWords > 65535) begin : gen_check_reduce_words
    $error("ReduceWords must be at most 65535 (a 16-bit count)");
  end
  if (ReduceWords > 0 && NumRegs == 0) begin : gen_check_reduce_regs
    $error("ReduceWords needs barrier registers (NumRegs >= 1): the lanes are theirs");
  end
  if (NiPorts != 1 && NiPorts != 4) begin : gen_check_ni_ports
    $error("NiPorts must be 1 (one-port) or 4 (all-port)");
  end
  if (UnicastVcs < 1 || UnicastVcs > meshsync_pkg::MaxUnicastVcs) begin : gen_check_unicast_vcs
    $error("UnicastVcs must be 1 to 8");
  end
  if (VcAllocation > 1) begin : gen_check_vc_allocation
    $error("VcAllocation must be 0 (round-robin) or 1 (most credits)");
  end
  if (RoutingStage > 16) begin : gen_check_routing_stage
    $error("RoutingStage must be at most 16 cycles");
  end
  if (VaStage > 16) begin : gen_check_va_stage
    $error("VaStage must be at most 16 cycles");
  end

endmodule

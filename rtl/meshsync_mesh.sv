// A MeshW x MeshH mesh of meshsync_router, neighbours joined by Tp-cycle links
// (meshsync_link) for flits and for credits, so that the mesh's timing is the model's
// (NetworkCore: a flit granted in c is in the neighbour's buffer in c + 1 + Tp, a credit
// popped in c is usable upstream in c + 1 + Tp). At the boundary only what a node's
// network interface sees: the Local port (injection, local_ready, ejection), the software
// register port, error and idle, per node. Node n = y * MeshW + x; a node's field of a
// per-node bus is at n * (field width). docs/rtl.md, "The mesh top".
//
// The ports are flat vectors on purpose: this is a Verilated top, and the C++ side
// (model/cosim/rtl_ports.hpp) drives and reads them bit by bit; so are the router's, for
// the same reason. Inside, the links are arrays indexed by node and port, and each node's
// router ports are unpacked per port once.
module meshsync_mesh #(
  /// Mesh width (columns).
  parameter int unsigned MeshW = 4,
  /// Mesh height (rows).
  parameter int unsigned MeshH = 4,
  /// Link latency in cycles (>= 1), flits and credits alike: the model's tp.
  parameter int unsigned Tp = 5,
  /// Router parameters, passed through (rtl/meshsync_router_params.svh documents them and
  /// their defaults, the design point). NiPorts must stay 1: a node's NI here is one-port.
  `include "meshsync_router_params.svh"
  ,
  /// Bits of an x coordinate.
  parameter int unsigned CoordXW = (MeshW > 1) ? $clog2(MeshW) : 1,
  /// Bits of a y coordinate.
  parameter int unsigned CoordYW = (MeshH > 1) ? $clog2(MeshH) : 1,
  /// Width of the software port's child count.
  parameter int unsigned NumChildrenW = $clog2(MaxChildren + 2),
  /// The routers' VCs and the bits of a VC number (meshsync_router's; derived, do not set).
  parameter int unsigned NumVcs = meshsync_pkg::ClassVcs - 1 +
      ((UnicastVcs < 1) ? 1 : (UnicastVcs > meshsync_pkg::MaxUnicastVcs) ? meshsync_pkg::MaxUnicastVcs : UnicastVcs),
  parameter int unsigned VcW = meshsync_pkg::vc_width(NumVcs)
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  // Injection (the router's Local input) and its local_ready, per node.
  input  logic [MeshW*MeshH-1:0]                                inj_valid_i,
  input  logic [MeshW*MeshH*VcW-1:0]                            inj_vc_i,
  input  logic [MeshW*MeshH*FlitW-1:0]                          inj_flit_i,
  output logic [MeshW*MeshH*NumVcs-1:0]                         local_ready_o,
  // Ejection (the router's Local output), per node.
  output logic [MeshW*MeshH-1:0]                                ej_valid_o,
  output logic [MeshW*MeshH*VcW-1:0]                            ej_vc_o,
  output logic [MeshW*MeshH*FlitW-1:0]                          ej_flit_o,
  // Software register port, per node (meshsync_router's reg_* ports).
  input  logic [MeshW*MeshH*2-1:0]                              reg_op_i,
  input  logic [MeshW*MeshH*meshsync_pkg::GidW-1:0]             reg_gid_i,
  input  logic [MeshW*MeshH-1:0]                                reg_parent_valid_i,
  input  logic [MeshW*MeshH*CoordXW-1:0]                        reg_parent_x_i,
  input  logic [MeshW*MeshH*CoordYW-1:0]                        reg_parent_y_i,
  input  logic [MeshW*MeshH-1:0]                                reg_route_i,
  input  logic [MeshW*MeshH*meshsync_pkg::DataW-1:0]            reg_slot_i,
  input  logic [MeshW*MeshH-1:0]                                reg_transit_i,
  input  logic [MeshW*MeshH*NumChildrenW-1:0]                   reg_num_children_i,
  input  logic [MeshW*MeshH*MaxChildren*CoordXW-1:0]            reg_child_x_i,
  input  logic [MeshW*MeshH*MaxChildren*CoordYW-1:0]            reg_child_y_i,
  input  logic [MeshW*MeshH*MaxChildren-1:0]                    reg_child_route_i,
  output logic [MeshW*MeshH-1:0]                                reg_ok_o,
  // The router's error_o, or a flit sent off the mesh's edge.
  output logic [MeshW*MeshH-1:0]                                error_o,
  // The router's idle_o and nothing in flight on the links into the node (flits or
  // credits): while every node is idle and nothing is presented, a clock edge changes
  // nothing, so a simulation may skip it.
  output logic [MeshW*MeshH-1:0]                                idle_o
);

  localparam int unsigned Nodes = MeshW * MeshH;

  // The shared parameter list has NiPorts; the mesh's boundary is a one-port NI per node.
  if (NiPorts != 1) begin : gen_check_ni_ports
    $error("NiPorts must be 1 in meshsync_mesh (a one-port NI per node)");
  end
  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  // The four neighbour ports +X, -X, +Y, -Y (1..4).
  localparam int unsigned Dirs = NumPorts - 1;
  // A flit on a link: valid, VC, flit.
  localparam int unsigned LinkW = 1 + VcW + FlitW;

  // The far end of the link leaving node n through port p, and whether it holds anything,
  // at [n][p].
  logic [LinkW-1:0]  flit_far [Nodes][1:Dirs];
  logic              flit_busy [Nodes][1:Dirs];
  logic [NumVcs-1:0] credit_far [Nodes][1:Dirs];
  logic              credit_busy [Nodes][1:Dirs];

  for (genvar y = 0; y < MeshH; y++) begin : gen_row
    for (genvar x = 0; x < MeshW; x++) begin : gen_col
      localparam int unsigned N = y * MeshW + x;

      // The router's ports per port p (0: Local, the boundary; 1-4: the links), and the
      // same flat, as its ports take them.
      logic [NumPorts-1:0]        in_valid, out_valid;
      logic [VcW-1:0]             in_vc [NumPorts];
      logic [VcW-1:0]             out_vc [NumPorts];
      logic [FlitW-1:0]           in_flit [NumPorts];
      logic [FlitW-1:0]           out_flit [NumPorts];
      logic [NumVcs-1:0]          credit_in [NumPorts];
      logic [NumVcs-1:0]          credit_out [NumPorts];
      logic [NumPorts*VcW-1:0]    in_vcs, out_vcs;
      logic [NumPorts*FlitW-1:0]  in_flits, out_flits;
      logic [NumPorts*NumVcs-1:0] credits_in, credits_out;
      logic [NumPorts-1:1]        edge_valid, link_busy;
      logic                       router_error, router_idle;
      logic [NumVcs-1:0]          inj_pop;  // the boundary injects on local_ready alone

      for (genvar p = 0; p < NumPorts; p++) begin : gen_router_port
        assign in_vcs[p*VcW +: VcW] = in_vc[p];
        assign in_flits[p*FlitW +: FlitW] = in_flit[p];
        assign credits_in[p*NumVcs +: NumVcs] = credit_in[p];
        assign out_vc[p] = out_vcs[p*VcW +: VcW];
        assign out_flit[p] = out_flits[p*FlitW +: FlitW];
        assign credit_out[p] = credits_out[p*NumVcs +: NumVcs];
      end

      meshsync_router #(
        .MeshW           (MeshW),
        .MeshH           (MeshH),
        .FlitW           (FlitW),
        .BufferDepth     (BufferDepth),
        .SyncBufferDepth (SyncBufferDepth),
        .TreeBufferDepth (TreeBufferDepth),
        .PathWorms       (PathWorms),
        .NumRegs         (NumRegs),
        .MaxChildren     (MaxChildren),
        .Trn             (Trn),
        .Trm             (Trm),
        .ReduceWords     (ReduceWords),
        .NiPorts         (1),
        .UnicastVcs      (UnicastVcs),
        .VcAllocation    (VcAllocation),
        .RoutingStage    (RoutingStage),
        .VaStage         (VaStage)
      ) u_router (
        .clk_i              (clk_i),
        .rst_ni             (rst_ni),
        .my_x_i             (CoordXW'(x)),
        .my_y_i             (CoordYW'(y)),
        .in_valid_i         (in_valid),
        .in_vc_i            (in_vcs),
        .in_flit_i          (in_flits),
        .local_ready_o      (local_ready_o[N*NumVcs +: NumVcs]),
        .inj_pop_o          (inj_pop),
        .out_valid_o        (out_valid),
        .out_vc_o           (out_vcs),
        .out_flit_o         (out_flits),
        .credit_out_o       (credits_out),
        .credit_in_i        (credits_in),
        .reg_op_i           (reg_op_i[N*2 +: 2]),
        .reg_gid_i          (reg_gid_i[N*GidW +: GidW]),
        .reg_parent_valid_i (reg_parent_valid_i[N]),
        .reg_parent_x_i     (reg_parent_x_i[N*CoordXW +: CoordXW]),
        .reg_parent_y_i     (reg_parent_y_i[N*CoordYW +: CoordYW]),
        .reg_route_i        (reg_route_i[N]),
        .reg_slot_i         (reg_slot_i[N*DataW +: DataW]),
        .reg_transit_i      (reg_transit_i[N]),
        .reg_num_children_i (reg_num_children_i[N*NumChildrenW +: NumChildrenW]),
        .reg_child_x_i      (reg_child_x_i[N*MaxChildren*CoordXW +: MaxChildren*CoordXW]),
        .reg_child_y_i      (reg_child_y_i[N*MaxChildren*CoordYW +: MaxChildren*CoordYW]),
        .reg_child_route_i  (reg_child_route_i[N*MaxChildren +: MaxChildren]),
        .reg_ok_o           (reg_ok_o[N]),
        .error_o            (router_error),
        .idle_o             (router_idle)
      );

      // Local: the boundary. The router returns no credits for its Local input (the NI
      // injects on local_ready) and counts none for its Local output (the NI accepts all).
      assign in_valid[0] = inj_valid_i[N];
      assign in_vc[0] = inj_vc_i[N*VcW +: VcW];
      assign in_flit[0] = inj_flit_i[N*FlitW +: FlitW];
      assign credit_in[0] = '0;
      assign ej_valid_o[N] = out_valid[0];
      assign ej_vc_o[N*VcW +: VcW] = out_vc[0];
      assign ej_flit_o[N*FlitW +: FlitW] = out_flit[0];
      logic unused_local_credit;
      assign unused_local_credit = ^{credit_out[0], inj_pop};

      for (genvar p = 1; p < NumPorts; p++) begin : gen_port
        // The neighbour through port p and the port it uses towards this node.
        localparam bit HasNeighbour = (p == 1) ? (x + 1 < MeshW) : (p == 2) ? (x > 0) :
                                      (p == 3) ? (y + 1 < MeshH) : (y > 0);
        localparam int unsigned M = (p == 1) ? N + 1 : (p == 2) ? N - 1 :
                                    (p == 3) ? N + MeshW : N - MeshW;
        localparam int unsigned Back = (p == 1) ? 2 : (p == 2) ? 1 : (p == 3) ? 4 : 3;
        if (HasNeighbour) begin : gen_link
          logic [LinkW-1:0] flit_near;
          assign flit_near = out_valid[p] ? {1'b1, out_vc[p], out_flit[p]} : '0;
          meshsync_link #(
            .Tp    (Tp),
            .Width (LinkW)
          ) u_flit_link (
            .clk_i  (clk_i),
            .rst_ni (rst_ni),
            .data_i (flit_near),
            .data_o (flit_far[N][p]),
            .busy_o (flit_busy[N][p])
          );
          // Credits for this node's input p go back to the neighbour it comes from.
          meshsync_link #(
            .Tp    (Tp),
            .Width (NumVcs)
          ) u_credit_link (
            .clk_i  (clk_i),
            .rst_ni (rst_ni),
            .data_i (credit_out[p]),
            .data_o (credit_far[N][p]),
            .busy_o (credit_busy[N][p])
          );
          // Input p takes the flits the neighbour sends through its port Back, and output
          // p counts the credits the neighbour's input Back returns.
          logic [LinkW-1:0] arriving;
          assign arriving = flit_far[M][Back];
          assign in_valid[p] = arriving[LinkW-1];
          assign in_vc[p] = arriving[FlitW +: VcW];
          assign in_flit[p] = arriving[FlitW-1:0];
          assign credit_in[p] = credit_far[M][Back];
          assign link_busy[p] = flit_busy[M][Back] || credit_busy[M][Back];
          assign edge_valid[p] = 1'b0;
        end else begin : gen_edge
          // No neighbour: nothing comes in, and dimension-order routing never sends a flit
          // out (one that does is an error).
          assign flit_far[N][p] = '0;
          assign flit_busy[N][p] = 1'b0;
          assign credit_far[N][p] = '0;
          assign credit_busy[N][p] = 1'b0;
          assign in_valid[p] = 1'b0;
          assign in_vc[p] = '0;
          assign in_flit[p] = '0;
          assign credit_in[p] = '0;
          assign link_busy[p] = 1'b0;
          assign edge_valid[p] = out_valid[p];
          logic unused_edge;
          assign unused_edge = ^{out_vc[p], out_flit[p], credit_out[p], flit_far[N][p],
                                 credit_far[N][p]};
        end
      end

      assign error_o[N] = router_error || (|edge_valid);
      assign idle_o[N] = router_idle && !(|link_busy);
    end
  end

endmodule

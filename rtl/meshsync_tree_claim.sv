// The tree claim (docs/tree-multicast.md): one tree head a cycle claims its outputs, and
// per input the router keeps what the worm passing now claimed until its tail leaves.
// The claimant is picked round robin over the inputs whose tree head is at the front,
// ready and unclaimed, from the one after the last claimant. In transit it wants its
// routed port; addressed here, its NI output and each child's first hop, the children
// read from the member register of its group (the registers as they are at the start of
// the cycle). It gets each wanted output that has room (tree VC free, buffer behind
// empty), all at once, and its claim counts from this cycle on: the claimant may send at
// once. A head's copy to a child is readdressed to the child (the crossbar does it).
module meshsync_tree_claim #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Inputs: the five ports and an all-port NI's injection channels 1-3.
  parameter int unsigned NumIn = meshsync_pkg::NumPorts,
  /// Outputs: the five ports and an all-port NI's ejection outputs.
  parameter int unsigned NumOut = meshsync_pkg::NumPorts,
  /// NI channels (1: one-port; 4: all-port, link inputs eject on their own output).
  parameter int unsigned NiPorts = 1,
  /// Register file entries looked up (>= 1; a router without registers ties them off).
  parameter int unsigned NumRegs = 4,
  /// Children one register holds.
  parameter int unsigned MaxChildren = 8,
  /// Bits of an x coordinate in the registers.
  parameter int unsigned CoordXW = 3,
  /// Bits of a y coordinate in the registers.
  parameter int unsigned CoordYW = 3,
  /// Width of a register's child count.
  parameter int unsigned NumChildrenW = 4,
  /// Width of an input index (the claimant).
  parameter int unsigned InW = (NumIn > 1) ? $clog2(NumIn) : 1
) (
  input  logic                                                 clk_i,
  input  logic                                                 rst_ni,
  input  logic [meshsync_pkg::CoordW-1:0]                      here_x_i,
  input  logic [meshsync_pkg::CoordW-1:0]                      here_y_i,
  // Per input: a tree head at the front, ready; its flit and its routed port (Local:
  // addressed here).
  input  logic [NumIn-1:0]                                     head_i,
  input  logic [NumIn*FlitW-1:0]                               head_flit_i,
  input  logic [NumIn*meshsync_pkg::PortW-1:0]                 head_out_i,
  // The registers, current state.
  input  logic [NumRegs-1:0]                                   reg_valid_i,
  input  logic [NumRegs-1:0]                                   reg_member_i,
  input  logic [NumRegs*meshsync_pkg::GidW-1:0]                reg_gid_i,
  input  logic [NumRegs*NumChildrenW-1:0]                      reg_num_children_i,
  input  logic [NumRegs*MaxChildren*CoordXW-1:0]               reg_child_x_i,
  input  logic [NumRegs*MaxChildren*CoordYW-1:0]               reg_child_y_i,
  input  logic [NumRegs*MaxChildren-1:0]                       reg_child_route_i,
  // Per output: its tree VC is free and the buffer behind it empty (the output unit).
  input  logic [NumOut-1:0]                                    room_i,
  // Per input: its tree worm's tail left this cycle.
  input  logic [NumIn-1:0]                                     tail_gone_i,
  // This cycle's claim: the outputs it got (their tree VCs are the claimant's now).
  output logic [NumOut-1:0]                                    claim_ok_o,
  output logic [InW-1:0]                                       claim_idx_o,
  // Per input, the worm passing now, this cycle's claim included: claimed, its outputs,
  // the links whose copy is readdressed to a child, and each such link's child and route.
  output logic [NumIn-1:0]                                     claimed_o,
  output logic [NumIn*NumOut-1:0]                              outs_o,
  output logic [NumIn*meshsync_pkg::NumPorts-1:0]              child_o,
  output logic [NumIn*meshsync_pkg::NumPorts*meshsync_pkg::CoordW-1:0] child_x_o,
  output logic [NumIn*meshsync_pkg::NumPorts*meshsync_pkg::CoordW-1:0] child_y_o,
  output logic [NumIn*meshsync_pkg::NumPorts-1:0]              child_route_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned OutW = $clog2(NumOut);
  // Signed loop bound: no constant-comparison warning with one child.
  localparam int MaxChildrenI = MaxChildren;

  // The ports that carry one field per input or per register, unpacked (Yosys 0.23 takes
  // no array ports). A register's children stay one vector each: meshsync_child_hops takes
  // them so.
  logic [FlitW-1:0] head_flit [NumIn];
  logic [PortW-1:0] head_out [NumIn];
  for (genvar i = 0; i < NumIn; i++) begin : gen_unpack_input
    assign head_flit[i] = head_flit_i[i*FlitW +: FlitW];
    assign head_out[i] = head_out_i[i*PortW +: PortW];
  end
  logic [NumChildrenW-1:0] reg_num_children [NumRegs];
  logic [MaxChildren*CoordXW-1:0] reg_child_x [NumRegs];
  logic [MaxChildren*CoordYW-1:0] reg_child_y [NumRegs];
  logic [MaxChildren-1:0] reg_child_route [NumRegs];
  for (genvar k = 0; k < NumRegs; k++) begin : gen_unpack_reg
    assign reg_num_children[k] = reg_num_children_i[k*NumChildrenW +: NumChildrenW];
    assign reg_child_x[k] = reg_child_x_i[k*MaxChildren*CoordXW +: MaxChildren*CoordXW];
    assign reg_child_y[k] = reg_child_y_i[k*MaxChildren*CoordYW +: MaxChildren*CoordYW];
    assign reg_child_route[k] = reg_child_route_i[k*MaxChildren +: MaxChildren];
  end

  // ---------------------------------------------------------------------------------------
  // The claimant
  // ---------------------------------------------------------------------------------------
  logic [NumIn-1:0] claimed_q, claimed_d;
  logic claim_valid;
  logic [InW-1:0] claim_idx, rr_q, rr_next;

  meshsync_rr_pick #(
    .N    (NumIn),
    .IdxW (InW)
  ) u_pick (
    .req_i   (head_i & ~claimed_q),
    .start_i (rr_q),
    .valid_o (claim_valid),
    .idx_o   (claim_idx),
    .next_o  (rr_next)
  );
  always_ff @(posedge clk_i) begin
    if (!rst_ni) rr_q <= '0;
    else if (claim_valid) rr_q <= rr_next;
  end

  meshsync_pkg::flit_t flit;
  logic [PortW-1:0] out;
  // The claimant's NI output: Local, or (all-port) its link's ejection output 5-8.
  logic [OutW-1:0] eject;
  always_comb begin
    flit = '0;
    out = '0;
    eject = '0;
    for (int i = 0; i < NumIn; i++) begin
      if (claim_idx == InW'(i)) begin
        flit = head_flit[i];
        out = head_out[i];
        eject = OutW'(meshsync_pkg::eject_of(i, NiPorts));
      end
    end
  end
  // The claim reads the group; the route and destination were read at arrival.
  logic unused_flit;
  assign unused_flit = ^{flit.head, flit.tail, flit.f.hdr.sync, flit.f.hdr.route,
                         flit.f.hdr.view.tree.mcast, flit.f.hdr.view.tree.base,
                         flit.f.hdr.view.tree.spare, flit.f.hdr.dest_y, flit.f.hdr.dest_x};

  // ---------------------------------------------------------------------------------------
  // The group's children: the member register of the group, and each child's first hop
  // ---------------------------------------------------------------------------------------
  logic [NumRegs-1:0] hit;
  logic [NumChildrenW-1:0] n;
  logic [MaxChildren*CoordXW-1:0] rx;
  logic [MaxChildren*CoordYW-1:0] ry;
  logic [MaxChildren-1:0] cr;
  // meshsync_child_hops gives the children's addresses and first hops as flat vectors,
  // unpacked into cx, cy and cport.
  logic [MaxChildren*CoordW-1:0] hops_x, hops_y;
  logic [MaxChildren*PortW-1:0] hops_port;
  logic [CoordW-1:0] cx [MaxChildren];
  logic [CoordW-1:0] cy [MaxChildren];
  logic [PortW-1:0] cport [MaxChildren];

  meshsync_group_cam #(
    .NumRegs (NumRegs)
  ) u_cam (
    .valid_i (reg_valid_i & reg_member_i),
    .gid_i   (reg_gid_i),
    .key_i   (flit.f.hdr.view.tree.gid),
    .hit_o   (hit)
  );

  // The hit register's children (all zero on a miss). The hit is one-hot: a chain of
  // multiplexers selects as well as an AND-OR, in half the generic cells.
  always_comb begin
    n = '0;
    rx = '0;
    ry = '0;
    cr = '0;
    for (int k = 0; k < NumRegs; k++) begin
      if (hit[k]) begin
        n = reg_num_children[k];
        rx = reg_child_x[k];
        ry = reg_child_y[k];
        cr = reg_child_route[k];
      end
    end
  end

  meshsync_child_hops #(
    .MaxChildren (MaxChildren),
    .CoordXW     (CoordXW),
    .CoordYW     (CoordYW)
  ) u_child_hops (
    .here_x_i      (here_x_i),
    .here_y_i      (here_y_i),
    .child_x_i     (rx),
    .child_y_i     (ry),
    .child_route_i (cr),
    .child_x_o     (hops_x),
    .child_y_o     (hops_y),
    .port_o        (hops_port)
  );
  for (genvar j = 0; j < MaxChildren; j++) begin : gen_unpack_child
    assign cx[j] = hops_x[j*CoordW +: CoordW];
    assign cy[j] = hops_y[j*CoordW +: CoordW];
    assign cport[j] = hops_port[j*PortW +: PortW];
  end

  // ---------------------------------------------------------------------------------------
  // What the claimant wants, and gets
  // ---------------------------------------------------------------------------------------
  // In transit its routed port; here, the NI and every child's first hop (a later child
  // behind the same port replaces an earlier one, as in the model).
  logic [NumOut-1:0] want;
  logic [NumPorts-1:0] child;
  logic [CoordW-1:0] px [NumPorts];
  logic [CoordW-1:0] py [NumPorts];
  logic [NumPorts-1:0] pr;
  always_comb begin
    want = '0;
    child = '0;
    pr = '0;
    for (int o = 0; o < NumPorts; o++) begin
      px[o] = '0;
      py[o] = '0;
    end
    if (out != meshsync_pkg::PortLocal) begin
      for (int o = 1; o < NumPorts; o++) begin
        if (out == PortW'(o)) want[o] = 1'b1;
      end
    end else begin
      for (int o = 0; o < NumOut; o++) begin
        if (eject == OutW'(o)) want[o] = 1'b1;
      end
      if (|hit) begin
        for (int j = 0; j < MaxChildrenI; j++) begin
          if (NumChildrenW'(j) < n) begin
            for (int o = 1; o < NumPorts; o++) begin
              if (cport[j] == PortW'(o)) begin
                want[o] = 1'b1;
                child[o] = 1'b1;
                px[o] = cx[j];
                py[o] = cy[j];
                pr[o] = cr[j];
              end
            end
          end
        end
      end
    end
  end

  assign claim_ok_o = want & room_i & {NumOut{claim_valid}};
  assign claim_idx_o = claim_idx;

  // ---------------------------------------------------------------------------------------
  // Per input, the worm passing: this cycle's claim included; a tail leaving clears it
  // ---------------------------------------------------------------------------------------
  // The registers are flat, in the output ports' layout (input i's field at i * width):
  // rtl-equiv pairs flip-flops by name, and Yosys names the elements of an unpacked array
  // register apart (outs_q[0], ...). Each input's field is read and written once, here.
  logic [NumIn*NumOut-1:0] outs_q, outs_d;
  logic [NumIn*NumPorts-1:0] child_q, child_d, cr_q;
  logic [NumIn*NumPorts*CoordW-1:0] cx_q, cy_q;

  for (genvar i = 0; i < NumIn; i++) begin : gen_worm
    // Input i is this cycle's claimant.
    logic claimant;
    assign claimant = claim_valid && (claim_idx == InW'(i));
    assign claimed_o[i] = claimant || claimed_q[i];
    assign outs_o[i*NumOut +: NumOut] = claimant ? claim_ok_o : outs_q[i*NumOut +: NumOut];
    assign child_o[i*NumPorts +: NumPorts] = claimant ? child : child_q[i*NumPorts +: NumPorts];
    assign child_route_o[i*NumPorts +: NumPorts] = claimant ? pr : cr_q[i*NumPorts +: NumPorts];
    for (genvar p = 0; p < NumPorts; p++) begin : gen_port
      localparam int unsigned At = (i*NumPorts + p) * CoordW;
      assign child_x_o[At +: CoordW] = claimant ? px[p] : cx_q[At +: CoordW];
      assign child_y_o[At +: CoordW] = claimant ? py[p] : cy_q[At +: CoordW];
    end
    // A tail leaving clears the claim (not the children's addresses: child_o says which hold).
    assign claimed_d[i] = claimed_o[i] && !tail_gone_i[i];
    assign outs_d[i*NumOut +: NumOut] = tail_gone_i[i] ? '0 : outs_o[i*NumOut +: NumOut];
    assign child_d[i*NumPorts +: NumPorts] = tail_gone_i[i] ? '0 : child_o[i*NumPorts +: NumPorts];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      claimed_q <= '0;
      outs_q <= '0;
      child_q <= '0;
      cx_q <= '0;
      cy_q <= '0;
      cr_q <= '0;
    end else begin
      claimed_q <= claimed_d;
      outs_q <= outs_d;
      child_q <= child_d;
      cx_q <= child_x_o;
      cy_q <= child_y_o;
      cr_q <= child_route_o;
    end
  end

`ifdef MESHSYNC_FORMAL_TREE_CLAIM
  `include "tree_claim.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

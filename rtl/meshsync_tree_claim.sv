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
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned OutW = $clog2(NumOut);
  // Signed loop bound: no constant-comparison warning with one child.
  localparam int MaxChildrenI = MaxChildren;

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

  logic [FlitW-1:0] flit;
  logic [PortW-1:0] out;
  // The claimant's NI output: Local, or (all-port) its link's ejection output 5-8.
  logic [OutW-1:0] eject;
  always_comb begin
    flit = '0;
    out = '0;
    eject = '0;
    for (int i = 0; i < NumIn; i++) begin
      if (claim_idx == InW'(i)) begin
        flit = head_flit_i[i*FlitW +: FlitW];
        out = head_out_i[i*PortW +: PortW];
        eject = OutW'(meshsync_pkg::eject_of(i, NiPorts));
      end
    end
  end
  // The claim reads the group; the route and destination were read at arrival.
  logic unused_flit;
  assign unused_flit = ^{flit[FlitW-1:meshsync_pkg::TreeGidLsb + GidW],
                         flit[meshsync_pkg::TreeGidLsb-1:0]};

  // ---------------------------------------------------------------------------------------
  // The group's children: the member register of the group, and each child's first hop
  // ---------------------------------------------------------------------------------------
  logic [NumRegs-1:0] hit;
  logic [NumChildrenW-1:0] n;
  logic [MaxChildren*CoordXW-1:0] rx;
  logic [MaxChildren*CoordYW-1:0] ry;
  logic [MaxChildren*CoordW-1:0] cx, cy;
  logic [MaxChildren-1:0] cr;
  logic [MaxChildren*PortW-1:0] cport;

  meshsync_group_cam #(
    .NumRegs (NumRegs)
  ) u_cam (
    .valid_i (reg_valid_i & reg_member_i),
    .gid_i   (reg_gid_i),
    .key_i   (flit[meshsync_pkg::TreeGidLsb +: GidW]),
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
        n = reg_num_children_i[k*NumChildrenW +: NumChildrenW];
        rx = reg_child_x_i[k*MaxChildren*CoordXW +: MaxChildren*CoordXW];
        ry = reg_child_y_i[k*MaxChildren*CoordYW +: MaxChildren*CoordYW];
        cr = reg_child_route_i[k*MaxChildren +: MaxChildren];
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
    .child_x_o     (cx),
    .child_y_o     (cy),
    .port_o        (cport)
  );

  // ---------------------------------------------------------------------------------------
  // What the claimant wants, and gets
  // ---------------------------------------------------------------------------------------
  // In transit its routed port; here, the NI and every child's first hop (a later child
  // behind the same port replaces an earlier one, as in the model).
  logic [NumOut-1:0] want;
  logic [NumPorts-1:0] child;
  logic [NumPorts*CoordW-1:0] px, py;
  logic [NumPorts-1:0] pr;
  always_comb begin
    want = '0;
    child = '0;
    px = '0;
    py = '0;
    pr = '0;
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
              if (cport[j*PortW +: PortW] == PortW'(o)) begin
                want[o] = 1'b1;
                child[o] = 1'b1;
                px[o*CoordW +: CoordW] = cx[j*CoordW +: CoordW];
                py[o*CoordW +: CoordW] = cy[j*CoordW +: CoordW];
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
  logic [NumIn*NumOut-1:0] outs_q, outs_d;
  logic [NumIn*NumPorts-1:0] child_q, child_d, cr_q;
  logic [NumIn*NumPorts*CoordW-1:0] cx_q, cy_q;

  always_comb begin
    claimed_o = claimed_q;
    outs_o = outs_q;
    child_o = child_q;
    child_x_o = cx_q;
    child_y_o = cy_q;
    child_route_o = cr_q;
    for (int i = 0; i < NumIn; i++) begin
      if (claim_valid && (claim_idx == InW'(i))) begin
        claimed_o[i] = 1'b1;
        outs_o[i*NumOut +: NumOut] = claim_ok_o;
        child_o[i*NumPorts +: NumPorts] = child;
        child_x_o[i*NumPorts*CoordW +: NumPorts*CoordW] = px;
        child_y_o[i*NumPorts*CoordW +: NumPorts*CoordW] = py;
        child_route_o[i*NumPorts +: NumPorts] = pr;
      end
    end
  end

  always_comb begin
    claimed_d = claimed_o;
    outs_d = outs_o;
    child_d = child_o;
    for (int i = 0; i < NumIn; i++) begin
      if (tail_gone_i[i]) begin
        claimed_d[i] = 1'b0;
        outs_d[i*NumOut +: NumOut] = '0;
        child_d[i*NumPorts +: NumPorts] = '0;
      end
    end
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

endmodule

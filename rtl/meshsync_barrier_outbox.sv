// The outbox of one barrier register: the messages the barrier unit created and that wait
// for their output ports (router_core.cpp outbox_). In the model it is a list of flits in
// creation order; a register offers, for each output port o, its first message for o
// whose (o, VC) has a credit. Within the protocol a register has at most one reduction
// message and one distribution batch outstanding, so the hardware holds:
//   - up:  the reduction message (to the parent, or at the root to the local NI),
//   - rel: a distribution batch, a pending bit per child plus one for the local release,
//   - for register 0 only, a small FIFO of messages handed on to the NI because their
//     register was freed while they waited in an input buffer (the model's fallback),
// with the order bits that say which of them was created first. Message fields are
// copied from the register when the message is created, as the model builds its flits
// then: software may free or reprogram the register before they leave.
// Messages created this cycle may leave this cycle (contract steps 5 and 6).
module meshsync_barrier_outbox #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Children one register holds.
  parameter int unsigned MaxChildren = 8,
  /// Bits of an x coordinate.
  parameter int unsigned CoordXW = 3,
  /// Bits of a y coordinate.
  parameter int unsigned CoordYW = 3,
  /// Width of the register's child count.
  parameter int unsigned NumChildrenW = 4,
  /// 1 for register 0: it also carries the fallback messages to the NI.
  parameter bit HasFallback = 1'b0,
  /// Fallback messages held at once (register 0).
  parameter int unsigned FallbackDepth = 4
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  input  logic [meshsync_pkg::CoordW-1:0]              here_x_i,
  input  logic [meshsync_pkg::CoordW-1:0]              here_y_i,
  // The register's fields (current state).
  input  logic [meshsync_pkg::GidW-1:0]                gid_i,
  input  logic                                         parent_valid_i,
  input  logic [CoordXW-1:0]                           parent_x_i,
  input  logic [CoordYW-1:0]                           parent_y_i,
  input  logic                                         route_i,
  input  logic [meshsync_pkg::DataW-1:0]               slot_i,
  input  logic [NumChildrenW-1:0]                      num_children_i,
  input  logic [MaxChildren*CoordXW-1:0]               child_x_i,
  input  logic [MaxChildren*CoordYW-1:0]               child_y_i,
  input  logic [MaxChildren-1:0]                       child_route_i,
  // Messages created this cycle, per consumed input message (input index order).
  input  logic [meshsync_pkg::NumPorts-1:0]            push_up_i,
  input  logic [meshsync_pkg::NumPorts-1:0]            push_rel_i,
  input  logic [meshsync_pkg::NumPorts-1:0]            push_fb_i,
  input  logic [meshsync_pkg::NumPorts*FlitW-1:0]      fb_flit_i,
  // Per output port o and VC v (bit o*3+v): a credit is available, or o is Local.
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::NumVcs-1:0] credit_ok_i,
  // The message offered to each output port.
  output logic [meshsync_pkg::NumPorts-1:0]            offer_o,
  output logic [meshsync_pkg::NumPorts*FlitW-1:0]      offer_flit_o,
  output logic [meshsync_pkg::NumPorts*meshsync_pkg::VcW-1:0] offer_vc_o,
  // The offer won its output port this cycle.
  input  logic [meshsync_pkg::NumPorts-1:0]            grant_i,
  // A message created while one of its kind is still waiting (outside the protocol).
  output logic                                         error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned NumVcs = meshsync_pkg::NumVcs;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned FbCountW = $clog2(FallbackDepth + 1);
  localparam int unsigned ChildW = (MaxChildren > 1) ? $clog2(MaxChildren) : 1;

  localparam logic [1:0] KindNone = 2'd0;
  localparam logic [1:0] KindUp = 2'd1;
  localparam logic [1:0] KindRel = 2'd2;
  localparam logic [1:0] KindFb = 2'd3;

  function automatic logic [FlitW-1:0] make_sync(
    input logic                      yx,
    input logic [1:0]                stype,
    input logic [GidW-1:0]           gid,
    input logic [DataW-1:0]          data,
    input logic [CoordW-1:0]         dest_x,
    input logic [CoordW-1:0]         dest_y
  );
    logic [FlitW-1:0] fl;
    fl = '0;
    fl[FlitW-1] = 1'b1;  // head
    fl[FlitW-2] = 1'b1;  // tail
    fl[FlitW-3] = 1'b1;  // sync
    fl[meshsync_pkg::RouteBit] = yx;
    fl[meshsync_pkg::TypeLsb +: meshsync_pkg::TypeW] = stype;
    fl[meshsync_pkg::GidLsb +: GidW] = gid;
    fl[meshsync_pkg::DataLsb +: DataW] = data;
    fl[meshsync_pkg::DestYLsb +: CoordW] = dest_y;
    fl[meshsync_pkg::DestXLsb +: CoordW] = dest_x;
    make_sync = fl;
  endfunction

  // ---------------------------------------------------------------------------------------
  // State: q (start of cycle) and m (after this cycle's pushes, what the arbiters see)
  // ---------------------------------------------------------------------------------------
  logic up_pend_q, up_pend_m, up_pend_d;
  logic up_self_q, up_self_m;  // root: the message goes to the local NI
  logic [GidW-1:0] up_gid_q, up_gid_m;
  logic [CoordXW-1:0] up_x_q, up_x_m;
  logic [CoordYW-1:0] up_y_q, up_y_m;
  logic up_yx_q, up_yx_m;
  logic [DataW-1:0] up_data_q, up_data_m;

  logic [MaxChildren-1:0] rel_pend_q, rel_pend_m, rel_pend_d;
  logic rel_local_q, rel_local_m, rel_local_d;
  logic [GidW-1:0] rel_gid_q, rel_gid_m;
  logic [MaxChildren*CoordXW-1:0] rel_x_q, rel_x_m;
  logic [MaxChildren*CoordYW-1:0] rel_y_q, rel_y_m;
  logic [MaxChildren-1:0] rel_yx_q, rel_yx_m;

  // Both outstanding: the reduction message was created first.
  logic up_first_q, up_first_m;

  // Fallback FIFO, head at entry 0. after_up / after_rel: that message was already
  // waiting when this one was created.
  logic [FbCountW-1:0] fb_count_q, fb_count_m, fb_count_d;
  logic [FallbackDepth-1:0] fb_yx_q, fb_yx_m, fb_yx_d;
  logic [FallbackDepth*2-1:0] fb_type_q, fb_type_m, fb_type_d;
  logic [FallbackDepth*GidW-1:0] fb_gid_q, fb_gid_m, fb_gid_d;
  logic [FallbackDepth*DataW-1:0] fb_data_q, fb_data_m, fb_data_d;
  logic [FallbackDepth-1:0] fb_after_up_q, fb_after_up_m, fb_after_up_d;
  logic [FallbackDepth-1:0] fb_after_rel_q, fb_after_rel_m, fb_after_rel_d;

  logic [MaxChildren-1:0] batch_mask;
  logic overflow;

  // The children programmed: pending bits of a new batch.
  always_comb begin
    for (int j = 0; j < MaxChildren; j++) begin
      batch_mask[j] = NumChildrenW'(j) < num_children_i;
    end
  end

  always_comb begin
    up_pend_m = up_pend_q;
    up_self_m = up_self_q;
    up_gid_m = up_gid_q;
    up_x_m = up_x_q;
    up_y_m = up_y_q;
    up_yx_m = up_yx_q;
    up_data_m = up_data_q;
    rel_pend_m = rel_pend_q;
    rel_local_m = rel_local_q;
    rel_gid_m = rel_gid_q;
    rel_x_m = rel_x_q;
    rel_y_m = rel_y_q;
    rel_yx_m = rel_yx_q;
    up_first_m = up_first_q;
    fb_count_m = fb_count_q;
    fb_yx_m = fb_yx_q;
    fb_type_m = fb_type_q;
    fb_gid_m = fb_gid_q;
    fb_data_m = fb_data_q;
    fb_after_up_m = fb_after_up_q;
    fb_after_rel_m = fb_after_rel_q;
    overflow = 1'b0;
    for (int i = 0; i < NumPorts; i++) begin
      if (push_up_i[i]) begin
        if (up_pend_m) begin
          overflow = 1'b1;
        end else begin
          up_pend_m = 1'b1;
          up_self_m = !parent_valid_i;
          up_gid_m = gid_i;
          up_x_m = parent_x_i;
          up_y_m = parent_y_i;
          up_yx_m = parent_valid_i && route_i;
          up_data_m = parent_valid_i ? slot_i : meshsync_pkg::SlotLocal;
          up_first_m = !((|rel_pend_m) || rel_local_m);
          fb_after_up_m = '0;
        end
      end
      if (push_rel_i[i]) begin
        if ((|rel_pend_m) || rel_local_m) begin
          overflow = 1'b1;
        end else begin
          rel_pend_m = batch_mask;
          rel_local_m = 1'b1;
          rel_gid_m = gid_i;
          rel_x_m = child_x_i;
          rel_y_m = child_y_i;
          rel_yx_m = child_route_i;
          up_first_m = up_pend_m;
          fb_after_rel_m = '0;
        end
      end
      if (HasFallback && push_fb_i[i]) begin
        if (fb_count_m == FbCountW'(FallbackDepth)) begin
          overflow = 1'b1;
        end else begin
          for (int e = 0; e < FallbackDepth; e++) begin
            if (fb_count_m == FbCountW'(e)) begin
              fb_yx_m[e] = fb_flit_i[i*FlitW + meshsync_pkg::RouteBit];
              fb_type_m[e*2 +: 2] = fb_flit_i[i*FlitW + meshsync_pkg::TypeLsb +: 2];
              fb_gid_m[e*GidW +: GidW] = fb_flit_i[i*FlitW + meshsync_pkg::GidLsb +: GidW];
              fb_data_m[e*DataW +: DataW] = fb_flit_i[i*FlitW + meshsync_pkg::DataLsb +: DataW];
              fb_after_up_m[e] = up_pend_m;
              fb_after_rel_m[e] = (|rel_pend_m) || rel_local_m;
            end
          end
          fb_count_m = fb_count_m + 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Offers: per output port, the first waiting message for it with a credit
  // ---------------------------------------------------------------------------------------
  logic [PortW-1:0] up_port;
  logic [MaxChildren*PortW-1:0] child_port;

  meshsync_route u_route_up (
    .here_x_i (here_x_i),
    .here_y_i (here_y_i),
    .dest_x_i (up_self_m ? here_x_i : CoordW'(up_x_m)),
    .dest_y_i (up_self_m ? here_y_i : CoordW'(up_y_m)),
    .yx_i     (up_yx_m),
    .port_o   (up_port)
  );

  for (genvar j = 0; j < MaxChildren; j++) begin : gen_child_route
    meshsync_route u_route_child (
      .here_x_i (here_x_i),
      .here_y_i (here_y_i),
      .dest_x_i (CoordW'(rel_x_m[j*CoordXW +: CoordXW])),
      .dest_y_i (CoordW'(rel_y_m[j*CoordYW +: CoordYW])),
      .yx_i     (rel_yx_m[j]),
      .port_o   (child_port[j*PortW +: PortW])
    );
  end

  logic [NumPorts*2-1:0] kind;
  logic [NumPorts*ChildW-1:0] kind_child;
  logic [NumPorts-1:0] kind_local;
  logic up_c, rel_c, rel_is_local, fb_c;
  logic [ChildW-1:0] rel_j;

  always_comb begin
    offer_o = '0;
    offer_flit_o = '0;
    offer_vc_o = '0;
    kind = '0;
    kind_child = '0;
    kind_local = '0;
    up_c = 1'b0;
    rel_c = 1'b0;
    rel_is_local = 1'b0;
    rel_j = '0;
    fb_c = 1'b0;
    for (int o = 0; o < NumPorts; o++) begin
      up_c = up_pend_m && (up_port == PortW'(o)) &&
             credit_ok_i[o*NumVcs + 1 + (up_yx_m ? 1 : 0)];
      rel_c = 1'b0;
      rel_j = '0;
      for (int j = MaxChildren - 1; j >= 0; j--) begin
        if (rel_pend_m[j] && (child_port[j*PortW +: PortW] == PortW'(o)) &&
            credit_ok_i[o*NumVcs + 1 + (rel_yx_m[j] ? 1 : 0)]) begin
          rel_c = 1'b1;
          rel_j = ChildW'(j);
        end
      end
      // The local release comes after the children in the batch.
      rel_is_local = !rel_c && rel_local_m && (o == 0);
      rel_c = rel_c || rel_is_local;
      fb_c = HasFallback && (o == 0) && (fb_count_m != '0);

      // The oldest candidate wins.
      if (up_c && (!rel_c || up_first_m) && (!fb_c || fb_after_up_m[0])) begin
        kind[o*2 +: 2] = KindUp;
        offer_flit_o[o*FlitW +: FlitW] = make_sync(
            up_yx_m, meshsync_pkg::SyncArrive, up_gid_m, up_data_m,
            up_self_m ? here_x_i : CoordW'(up_x_m), up_self_m ? here_y_i : CoordW'(up_y_m));
        offer_vc_o[o*2 +: 2] = up_yx_m ? 2'd2 : 2'd1;
      end else if (rel_c && (!fb_c || fb_after_rel_m[0])) begin
        kind[o*2 +: 2] = KindRel;
        kind_child[o*ChildW +: ChildW] = rel_j;
        kind_local[o] = rel_is_local;
        if (rel_is_local) begin
          offer_flit_o[o*FlitW +: FlitW] = make_sync(
              1'b0, meshsync_pkg::SyncRelease, rel_gid_m, '0, here_x_i, here_y_i);
          offer_vc_o[o*2 +: 2] = 2'd1;
        end else begin
          for (int j = 0; j < MaxChildren; j++) begin
            if (rel_j == ChildW'(j)) begin
              offer_flit_o[o*FlitW +: FlitW] = make_sync(
                  rel_yx_m[j], meshsync_pkg::SyncRelease, rel_gid_m, '0,
                  CoordW'(rel_x_m[j*CoordXW +: CoordXW]), CoordW'(rel_y_m[j*CoordYW +: CoordYW]));
              offer_vc_o[o*2 +: 2] = rel_yx_m[j] ? 2'd2 : 2'd1;
            end
          end
        end
      end else if (fb_c) begin
        kind[o*2 +: 2] = KindFb;
        offer_flit_o[o*FlitW +: FlitW] = make_sync(
            fb_yx_m[0], fb_type_m[1:0], fb_gid_m[GidW-1:0], fb_data_m[DataW-1:0],
            here_x_i, here_y_i);
        offer_vc_o[o*2 +: 2] = fb_yx_m[0] ? 2'd2 : 2'd1;
      end else if (up_c) begin
        // Not reached while the order bits are consistent; keeps the offer complete.
        kind[o*2 +: 2] = KindUp;
        offer_flit_o[o*FlitW +: FlitW] = make_sync(
            up_yx_m, meshsync_pkg::SyncArrive, up_gid_m, up_data_m,
            up_self_m ? here_x_i : CoordW'(up_x_m), up_self_m ? here_y_i : CoordW'(up_y_m));
        offer_vc_o[o*2 +: 2] = up_yx_m ? 2'd2 : 2'd1;
      end
      offer_o[o] = kind[o*2 +: 2] != KindNone;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Next state: granted messages leave
  // ---------------------------------------------------------------------------------------
  logic fb_pop;

  always_comb begin
    up_pend_d = up_pend_m;
    rel_pend_d = rel_pend_m;
    rel_local_d = rel_local_m;
    fb_pop = 1'b0;
    for (int o = 0; o < NumPorts; o++) begin
      if (grant_i[o]) begin
        case (kind[o*2 +: 2])
          KindUp: up_pend_d = 1'b0;
          KindRel: begin
            if (kind_local[o]) begin
              rel_local_d = 1'b0;
            end else begin
              for (int j = 0; j < MaxChildren; j++) begin
                if (kind_child[o*ChildW +: ChildW] == ChildW'(j)) rel_pend_d[j] = 1'b0;
              end
            end
          end
          KindFb: fb_pop = 1'b1;
          default: begin
          end
        endcase
      end
    end
    fb_count_d = fb_count_m;
    fb_yx_d = fb_yx_m;
    fb_type_d = fb_type_m;
    fb_gid_d = fb_gid_m;
    fb_data_d = fb_data_m;
    fb_after_up_d = fb_after_up_m;
    fb_after_rel_d = fb_after_rel_m;
    if (fb_pop) begin
      fb_count_d = fb_count_m - 1'b1;
      for (int e = 0; e + 1 < FallbackDepth; e++) begin
        fb_yx_d[e] = fb_yx_m[e+1];
        fb_type_d[e*2 +: 2] = fb_type_m[(e+1)*2 +: 2];
        fb_gid_d[e*GidW +: GidW] = fb_gid_m[(e+1)*GidW +: GidW];
        fb_data_d[e*DataW +: DataW] = fb_data_m[(e+1)*DataW +: DataW];
        fb_after_up_d[e] = fb_after_up_m[e+1];
        fb_after_rel_d[e] = fb_after_rel_m[e+1];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      up_pend_q <= 1'b0;
      rel_pend_q <= '0;
      rel_local_q <= 1'b0;
      up_first_q <= 1'b0;
      fb_count_q <= '0;
      fb_after_up_q <= '0;
      fb_after_rel_q <= '0;
    end else begin
      up_pend_q <= up_pend_d;
      rel_pend_q <= rel_pend_d;
      rel_local_q <= rel_local_d;
      up_first_q <= up_first_m;
      fb_count_q <= fb_count_d;
      fb_after_up_q <= fb_after_up_d;
      fb_after_rel_q <= fb_after_rel_d;
    end
  end

  // Message contents: read only while their pending bits are set.
  always_ff @(posedge clk_i) begin
    up_self_q <= up_self_m;
    up_gid_q <= up_gid_m;
    up_x_q <= up_x_m;
    up_y_q <= up_y_m;
    up_yx_q <= up_yx_m;
    up_data_q <= up_data_m;
    rel_gid_q <= rel_gid_m;
    rel_x_q <= rel_x_m;
    rel_y_q <= rel_y_m;
    rel_yx_q <= rel_yx_m;
    fb_yx_q <= fb_yx_d;
    fb_type_q <= fb_type_d;
    fb_gid_q <= fb_gid_d;
    fb_data_q <= fb_data_d;
  end

  assign error_o = overflow;

  // Fallback messages keep only their sync fields; the rest of the flit is the address of
  // this router, which the message came to.
  logic unused_fb_flit;
  assign unused_fb_flit = ^fb_flit_i;

endmodule

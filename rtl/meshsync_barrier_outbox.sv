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
  input  logic [CoordXW-1:0]                           here_x_i,
  input  logic [CoordYW-1:0]                           here_y_i,
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
  // Output ports of the parent message and of each child's release (routed when the
  // register was programmed).
  input  logic [meshsync_pkg::PortW-1:0]               parent_port_i,
  input  logic [MaxChildren*meshsync_pkg::PortW-1:0]   child_port_i,
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
  // Nothing waits: no reduction message, no distribution batch, no fallback message
  // (state at the start of the cycle; the router's idle output).
  output logic                                         idle_o,
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
  logic [PortW-1:0] up_port_q, up_port_m;

  logic [MaxChildren-1:0] rel_pend_q, rel_pend_m, rel_pend_d;
  logic rel_local_q, rel_local_m, rel_local_d;
  logic [GidW-1:0] rel_gid_q, rel_gid_m;
  logic [MaxChildren*CoordXW-1:0] rel_x_q, rel_x_m;
  logic [MaxChildren*CoordYW-1:0] rel_y_q, rel_y_m;
  logic [MaxChildren-1:0] rel_yx_q, rel_yx_m;
  logic [MaxChildren*PortW-1:0] rel_port_q, rel_port_m;

  // Both outstanding: the reduction message was created first.
  logic up_first_q, up_first_m;

  // Pushes of this cycle. Two messages of one kind outstanding at once is outside the
  // protocol (the register's next epoch needs the previous one's messages delivered), so a
  // kind is loaded at most once; its order against the other kind is the order of the
  // inputs whose messages created them.
  logic any_up, any_rel, load_up, load_rel, rel_busy_q, up_before_rel, dup_push;
  logic [NumPorts-1:0] up_earlier, rel_earlier;  // a push of that kind from a lower input
  logic [MaxChildren-1:0] batch_mask;

  always_comb begin
    up_earlier = '0;
    rel_earlier = '0;
    up_before_rel = 1'b0;
    dup_push = 1'b0;
    for (int i = 1; i < NumPorts; i++) begin
      up_earlier[i] = up_earlier[i-1] || push_up_i[i-1];
      rel_earlier[i] = rel_earlier[i-1] || push_rel_i[i-1];
    end
    for (int i = 0; i < NumPorts; i++) begin
      if (push_rel_i[i] && !rel_earlier[i]) up_before_rel = up_earlier[i];
      if ((push_up_i[i] && up_earlier[i]) || (push_rel_i[i] && rel_earlier[i])) dup_push = 1'b1;
    end
  end

  // The children programmed: pending bits of a new batch.
  always_comb begin
    for (int j = 0; j < MaxChildren; j++) begin
      batch_mask[j] = NumChildrenW'(j) < num_children_i;
    end
  end

  assign any_up = |push_up_i;
  assign any_rel = |push_rel_i;
  assign rel_busy_q = (|rel_pend_q) || rel_local_q;
  assign load_up = any_up && !up_pend_q;
  assign load_rel = any_rel && !rel_busy_q;

  always_comb begin
    up_pend_m = up_pend_q || load_up;
    up_self_m = up_self_q;
    up_gid_m = up_gid_q;
    up_x_m = up_x_q;
    up_y_m = up_y_q;
    up_yx_m = up_yx_q;
    up_data_m = up_data_q;
    up_port_m = up_port_q;
    if (load_up) begin
      up_self_m = !parent_valid_i;
      up_gid_m = gid_i;
      up_x_m = parent_x_i;
      up_y_m = parent_y_i;
      up_yx_m = parent_valid_i && route_i;
      up_data_m = parent_valid_i ? slot_i : meshsync_pkg::SlotLocal;
      up_port_m = parent_port_i;
    end
    rel_pend_m = load_rel ? batch_mask : rel_pend_q;
    rel_local_m = rel_local_q || load_rel;
    rel_gid_m = load_rel ? gid_i : rel_gid_q;
    rel_x_m = load_rel ? child_x_i : rel_x_q;
    rel_y_m = load_rel ? child_y_i : rel_y_q;
    rel_yx_m = load_rel ? child_route_i : rel_yx_q;
    rel_port_m = load_rel ? child_port_i : rel_port_q;
    if (load_up && load_rel) begin
      up_first_m = up_before_rel;
    end else if (load_up) begin
      up_first_m = !rel_busy_q;
    end else if (load_rel) begin
      up_first_m = up_pend_q;
    end else begin
      up_first_m = up_first_q;
    end
  end

  // Fallback messages (register 0): the head entry's fields and order bits.
  logic fb_valid, fb_head_yx, fb_head_after_up, fb_head_after_rel, fb_overflow, fb_pop;
  logic fb_busy_q;  // a fallback message waits (start of the cycle)
  logic [1:0] fb_head_type;
  logic [GidW-1:0] fb_head_gid;
  logic [DataW-1:0] fb_head_data;

  if (HasFallback) begin : gen_fallback
    // FIFO with the head at entry 0. after_up / after_rel: that message was already
    // waiting when this one was created.
    logic [FbCountW-1:0] count_q, count_m, count_d;
    logic [FallbackDepth-1:0] yx_q, yx_m, yx_d;
    logic [FallbackDepth*2-1:0] type_q, type_m, type_d;
    logic [FallbackDepth*GidW-1:0] gid_q, gid_m, gid_d;
    logic [FallbackDepth*DataW-1:0] data_q, data_m, data_d;
    logic [FallbackDepth-1:0] after_up_q, after_up_m, after_up_d;
    logic [FallbackDepth-1:0] after_rel_q, after_rel_m, after_rel_d;

    // Where each input's message goes: after what waits and what lower inputs push.
    logic [NumPorts*FbCountW-1:0] pos;
    logic [FbCountW:0] total;

    always_comb begin
      total = {1'b0, count_q};
      for (int i = 0; i < NumPorts; i++) begin
        pos[i*FbCountW +: FbCountW] = total[FbCountW-1:0];
        total = total + (FbCountW + 1)'(push_fb_i[i]);
      end
    end

    assign fb_overflow = total > (FbCountW + 1)'(FallbackDepth);
    assign count_m = fb_overflow ? FbCountW'(FallbackDepth) : total[FbCountW-1:0];

    for (genvar e = 0; e < FallbackDepth; e++) begin : gen_entry
      logic [NumPorts-1:0] sel;
      for (genvar i = 0; i < NumPorts; i++) begin : gen_sel
        assign sel[i] = push_fb_i[i] && (pos[i*FbCountW +: FbCountW] == FbCountW'(e));
      end
      always_comb begin
        yx_m[e] = yx_q[e];
        type_m[e*2 +: 2] = type_q[e*2 +: 2];
        gid_m[e*GidW +: GidW] = gid_q[e*GidW +: GidW];
        data_m[e*DataW +: DataW] = data_q[e*DataW +: DataW];
        // A reduction message or batch created this cycle is younger than what waits.
        after_up_m[e] = after_up_q[e] && !load_up;
        after_rel_m[e] = after_rel_q[e] && !load_rel;
        for (int i = 0; i < NumPorts; i++) begin
          if (sel[i]) begin
            yx_m[e] = fb_flit_i[i*FlitW + meshsync_pkg::RouteBit];
            type_m[e*2 +: 2] = fb_flit_i[i*FlitW + meshsync_pkg::TypeLsb +: 2];
            gid_m[e*GidW +: GidW] = fb_flit_i[i*FlitW + meshsync_pkg::GidLsb +: GidW];
            data_m[e*DataW +: DataW] = fb_flit_i[i*FlitW + meshsync_pkg::DataLsb +: DataW];
            after_up_m[e] = up_pend_q || (any_up && up_earlier[i]);
            after_rel_m[e] = rel_busy_q || (any_rel && rel_earlier[i]);
          end
        end
      end
    end

    assign fb_valid = count_m != '0;
    assign fb_busy_q = count_q != '0;
    assign fb_head_yx = yx_m[0];
    assign fb_head_type = type_m[1:0];
    assign fb_head_gid = gid_m[GidW-1:0];
    assign fb_head_data = data_m[DataW-1:0];
    assign fb_head_after_up = after_up_m[0];
    assign fb_head_after_rel = after_rel_m[0];

    always_comb begin
      count_d = count_m;
      yx_d = yx_m;
      type_d = type_m;
      gid_d = gid_m;
      data_d = data_m;
      after_up_d = after_up_m;
      after_rel_d = after_rel_m;
      if (fb_pop) begin
        count_d = count_m - 1'b1;
        for (int e = 0; e + 1 < FallbackDepth; e++) begin
          yx_d[e] = yx_m[e+1];
          type_d[e*2 +: 2] = type_m[(e+1)*2 +: 2];
          gid_d[e*GidW +: GidW] = gid_m[(e+1)*GidW +: GidW];
          data_d[e*DataW +: DataW] = data_m[(e+1)*DataW +: DataW];
          after_up_d[e] = after_up_m[e+1];
          after_rel_d[e] = after_rel_m[e+1];
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        count_q <= '0;
        after_up_q <= '0;
        after_rel_q <= '0;
      end else begin
        count_q <= count_d;
        after_up_q <= after_up_d;
        after_rel_q <= after_rel_d;
      end
    end

    always_ff @(posedge clk_i) begin
      yx_q <= yx_d;
      type_q <= type_d;
      gid_q <= gid_d;
      data_q <= data_d;
    end
  end else begin : gen_no_fallback
    assign fb_valid = 1'b0;
    assign fb_busy_q = 1'b0;
    assign fb_head_yx = 1'b0;
    assign fb_head_type = '0;
    assign fb_head_gid = '0;
    assign fb_head_data = '0;
    assign fb_head_after_up = 1'b0;
    assign fb_head_after_rel = 1'b0;
    assign fb_overflow = 1'b0;
    logic unused_fb;
    assign unused_fb = ^{push_fb_i, fb_pop};
  end

  // ---------------------------------------------------------------------------------------
  // Offers: per output port, the first waiting message for it with a credit
  // ---------------------------------------------------------------------------------------
  logic [CoordW-1:0] here_x, here_y;
  // Bit j*NumPorts+o: child j's release waits for port o and (o, its VC) has a credit.
  logic [MaxChildren*NumPorts-1:0] child_go;

  assign here_x = CoordW'(here_x_i);
  assign here_y = CoordW'(here_y_i);

  for (genvar j = 0; j < MaxChildren; j++) begin : gen_child
    for (genvar o = 0; o < NumPorts; o++) begin : gen_port
      assign child_go[j*NumPorts + o] =
          rel_pend_m[j] && (rel_port_m[j*PortW +: PortW] == PortW'(o)) &&
          credit_ok_i[o*NumVcs + (rel_yx_m[j] ? 2 : 1)];
    end
  end

  logic [NumPorts*2-1:0] kind;
  logic [NumPorts*MaxChildren-1:0] kind_child;  // one-hot: the child a port's offer serves
  logic [NumPorts-1:0] kind_local;
  logic up_c, rel_c, fb_c, child_c;
  logic [MaxChildren-1:0] pick;
  logic [CoordXW-1:0] pick_x, msg_x;
  logic [CoordYW-1:0] pick_y, msg_y;
  logic pick_yx, msg_yx, msg_here;
  logic [1:0] msg_type;
  logic [GidW-1:0] msg_gid;
  logic [DataW-1:0] msg_data;

  always_comb begin
    offer_o = '0;
    offer_flit_o = '0;
    offer_vc_o = '0;
    kind = '0;
    kind_child = '0;
    kind_local = '0;
    up_c = 1'b0;
    rel_c = 1'b0;
    fb_c = 1'b0;
    child_c = 1'b0;
    pick = '0;
    pick_x = '0;
    pick_y = '0;
    pick_yx = 1'b0;
    msg_x = '0;
    msg_y = '0;
    msg_yx = 1'b0;
    msg_here = 1'b0;
    msg_type = '0;
    msg_gid = '0;
    msg_data = '0;
    for (int o = 0; o < NumPorts; o++) begin
      up_c = up_pend_m && (up_port_m == PortW'(o)) && credit_ok_i[o*NumVcs + (up_yx_m ? 2 : 1)];
      // Children in batch order: the first one that may go.
      child_c = 1'b0;
      pick = '0;
      pick_x = '0;
      pick_y = '0;
      pick_yx = 1'b0;
      for (int j = 0; j < MaxChildren; j++) begin
        if (child_go[j*NumPorts + o] && !child_c) begin
          child_c = 1'b1;
          pick[j] = 1'b1;
          pick_x = rel_x_m[j*CoordXW +: CoordXW];
          pick_y = rel_y_m[j*CoordYW +: CoordYW];
          pick_yx = rel_yx_m[j];
        end
      end
      // The local release comes after the children in the batch.
      rel_c = child_c || (rel_local_m && (o == 0));
      fb_c = (o == 0) && fb_valid;

      // The oldest candidate wins.
      if (up_c && (!rel_c || up_first_m) && (!fb_c || fb_head_after_up)) begin
        kind[o*2 +: 2] = KindUp;
      end else if (rel_c && (!fb_c || fb_head_after_rel)) begin
        kind[o*2 +: 2] = KindRel;
        kind_child[o*MaxChildren +: MaxChildren] = pick;
        kind_local[o] = !child_c;
      end else if (fb_c) begin
        kind[o*2 +: 2] = KindFb;
      end else if (up_c) begin
        // Not reached while the order bits are consistent; keeps the offer complete.
        kind[o*2 +: 2] = KindUp;
      end

      case (kind[o*2 +: 2])
        KindUp: begin
          msg_yx = up_yx_m;
          msg_type = meshsync_pkg::SyncArrive;
          msg_gid = up_gid_m;
          msg_data = up_data_m;
          msg_here = up_self_m;
          msg_x = up_x_m;
          msg_y = up_y_m;
        end
        KindRel: begin
          msg_yx = child_c && pick_yx;
          msg_type = meshsync_pkg::SyncRelease;
          msg_gid = rel_gid_m;
          msg_data = '0;
          msg_here = !child_c;
          msg_x = pick_x;
          msg_y = pick_y;
        end
        KindFb: begin
          msg_yx = fb_head_yx;
          msg_type = fb_head_type;
          msg_gid = fb_head_gid;
          msg_data = fb_head_data;
          msg_here = 1'b1;
          msg_x = '0;
          msg_y = '0;
        end
        default: begin
          msg_yx = 1'b0;
          msg_type = '0;
          msg_gid = '0;
          msg_data = '0;
          msg_here = 1'b0;
          msg_x = '0;
          msg_y = '0;
        end
      endcase
      offer_o[o] = kind[o*2 +: 2] != KindNone;
      offer_vc_o[o*2 +: 2] = msg_yx ? 2'd2 : 2'd1;
      offer_flit_o[o*FlitW +: FlitW] = make_sync(
          msg_yx, msg_type, msg_gid, msg_data,
          msg_here ? here_x : CoordW'(msg_x), msg_here ? here_y : CoordW'(msg_y));
    end
  end

  // ---------------------------------------------------------------------------------------
  // Next state: granted messages leave
  // ---------------------------------------------------------------------------------------
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
              rel_pend_d = rel_pend_d & ~kind_child[o*MaxChildren +: MaxChildren];
            end
          end
          KindFb: fb_pop = 1'b1;
          default: begin
          end
        endcase
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      up_pend_q <= 1'b0;
      rel_pend_q <= '0;
      rel_local_q <= 1'b0;
      up_first_q <= 1'b0;
    end else begin
      up_pend_q <= up_pend_d;
      rel_pend_q <= rel_pend_d;
      rel_local_q <= rel_local_d;
      up_first_q <= up_first_m;
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
    up_port_q <= up_port_m;
    rel_gid_q <= rel_gid_m;
    rel_x_q <= rel_x_m;
    rel_y_q <= rel_y_m;
    rel_yx_q <= rel_yx_m;
    rel_port_q <= rel_port_m;
  end

  assign idle_o = !up_pend_q && !rel_busy_q && !fb_busy_q;
  assign error_o = dup_push || (any_up && up_pend_q) || (any_rel && rel_busy_q) || fb_overflow;

  // Fallback messages keep only their sync fields; the rest of the flit is the address of
  // this router, which the message came to.
  logic unused_fb_flit;
  assign unused_fb_flit = ^fb_flit_i;

endmodule

// The barrier emitter (contract step 6, router_core.cpp BarrierUnit::offer_batch): a
// micro-sequenced ("staged") emitter.
//   - Batches are taken in creation order: the barrier unit's batches enter a FIFO of
//     NumRegs entries (register index, release bit, live bit); when the emitter holds no
//     batch at the start of a cycle it pops the oldest, whether or not it is due. A
//     software write to a register kills its queued entries (a killed head is discarded
//     in the cycle it would be taken) and cancels its batch if it holds it (slots emptied).
//   - One message is staged per cycle: the emitter addresses ONE register's fields and ONE
//     child through meshsync_emitter_read_mux, computes the message's port with ONE
//     meshsync_route and writes the message into that port's slot (one per port, Local
//     included), visible from the next cycle. A reduction batch stages one message (to
//     the parent, or to Local at the root); a release batch its children in child order,
//     then the local release. Staging waits while the slot of the message's port is full
//     (at the start of the cycle).
//   - From the batch's due cycle (batch_due_i of its register) each full slot is offered
//     on its port when its (port, VC) has a credit; the local release only when no child's
//     slot is full (at the start of the cycle: the local process learns of the release
//     after its children, so software cannot free the register while the batch reads it).
//     A granted slot empties; the emitter is free from the cycle after the batch's last
//     message has left.
module meshsync_barrier_emitter #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Barrier registers (>= 1).
  parameter int unsigned NumRegs = 4,
  /// Children one register holds.
  parameter int unsigned MaxChildren = 8,
  /// Bits of an x coordinate.
  parameter int unsigned CoordXW = 3,
  /// Bits of a y coordinate.
  parameter int unsigned CoordYW = 3,
  /// Width of a register's child count.
  parameter int unsigned NumChildrenW = 4,
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  localparam int unsigned ChildW = (MaxChildren > 1) ? $clog2(MaxChildren) : 1
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  input  logic [CoordXW-1:0]                           here_x_i,
  input  logic [CoordYW-1:0]                           here_y_i,
  // A batch is created this cycle (the barrier unit's create): register and kind.
  input  logic                                         push_i,
  input  logic [RegW-1:0]                              push_reg_i,
  input  logic                                         push_release_i,
  // Register k's batch may leave from this cycle on (its countdown has run out).
  input  logic [NumRegs-1:0]                           batch_due_i,
  // The emitter takes register k's batch this cycle / holds register k's batch.
  output logic [NumRegs-1:0]                           batch_load_o,
  output logic [NumRegs-1:0]                           emitting_o,
  // The registers' fields (current state).
  input  logic [NumRegs*meshsync_pkg::GidW-1:0]        gid_i,
  input  logic [NumRegs-1:0]                           parent_valid_i,
  input  logic [NumRegs*CoordXW-1:0]                   parent_x_i,
  input  logic [NumRegs*CoordYW-1:0]                   parent_y_i,
  input  logic [NumRegs-1:0]                           route_i,
  input  logic [NumRegs*meshsync_pkg::DataW-1:0]       slot_i,
  input  logic [NumRegs*NumChildrenW-1:0]              num_children_i,
  input  logic [NumRegs*MaxChildren*CoordXW-1:0]       child_x_i,
  input  logic [NumRegs*MaxChildren*CoordYW-1:0]       child_y_i,
  input  logic [NumRegs*MaxChildren-1:0]               child_route_i,
  // Software writes register k at the end of this cycle.
  input  logic [NumRegs-1:0]                           written_i,
  // Per output port o and VC v (bit o*NumVcs+v): a credit is available, or o is Local.
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::NumVcs-1:0] credit_ok_i,
  // The message offered to each output port, and whether it won the port.
  output logic [meshsync_pkg::NumPorts-1:0]            offer_o,
  output logic [meshsync_pkg::NumPorts*FlitW-1:0]      offer_flit_o,
  output logic [meshsync_pkg::NumPorts*meshsync_pkg::VcW-1:0] offer_vc_o,
  input  logic [meshsync_pkg::NumPorts-1:0]            grant_i,
  // No batch held or queued (start of the cycle).
  output logic                                         idle_o,
  // A batch was created while the FIFO was full (killed entries still queued): dropped.
  output logic                                         error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned NumVcs = meshsync_pkg::NumVcs;
  localparam int unsigned VcW = meshsync_pkg::VcW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned CntW = $clog2(NumRegs + 1);       // FIFO occupancy
  localparam int unsigned SpW = $clog2(MaxChildren + 1);    // next child to stage
  localparam int unsigned CmpW = (SpW > NumChildrenW) ? SpW : NumChildrenW;
  // One slot: valid, dest x, dest y, gid, data, release (type), R.
  localparam int unsigned SlotW = CoordXW + CoordYW + GidW + DataW + 2;

  function automatic logic [FlitW-1:0] make_sync(
    input logic              yx,
    input logic [1:0]        stype,
    input logic [GidW-1:0]   gid,
    input logic [DataW-1:0]  data,
    input logic [CoordW-1:0] dest_x,
    input logic [CoordW-1:0] dest_y
  );
    logic [FlitW-1:0] fl;
    fl = '0;
    fl[meshsync_pkg::head_bit(FlitW)] = 1'b1;
    fl[meshsync_pkg::tail_bit(FlitW)] = 1'b1;
    fl[meshsync_pkg::sync_bit(FlitW)] = 1'b1;
    fl[meshsync_pkg::RouteBit] = yx;
    fl[meshsync_pkg::TypeLsb +: meshsync_pkg::TypeW] = stype;
    fl[meshsync_pkg::GidLsb +: GidW] = gid;
    fl[meshsync_pkg::DataLsb +: DataW] = data;
    fl[meshsync_pkg::DestYLsb +: CoordW] = dest_y;
    fl[meshsync_pkg::DestXLsb +: CoordW] = dest_x;
    make_sync = fl;
  endfunction

  // ---------------------------------------------------------------------------------------
  // FIFO of created batches
  // ---------------------------------------------------------------------------------------
  logic [NumRegs*RegW-1:0] fifo_reg_q, fifo_reg_d;
  logic [NumRegs-1:0] fifo_rel_q, fifo_rel_d, fifo_live_q, fifo_live_d;
  logic [RegW-1:0] head_q, head_d, tail_q, tail_d;
  logic [CntW-1:0] count_q, count_d;
  logic [RegW-1:0] head_reg;
  logic head_rel, head_live, pop, load, full;

  assign head_reg = fifo_reg_q[head_q*RegW +: RegW];
  assign head_rel = fifo_rel_q[head_q];
  assign head_live = fifo_live_q[head_q];
  assign full = count_q == CntW'(NumRegs);

  // ---------------------------------------------------------------------------------------
  // The batch: q at the start of the cycle, m after this cycle's load
  // ---------------------------------------------------------------------------------------
  logic active_q, active_m, active_d;
  logic [RegW-1:0] idx_q, idx_m;
  logic rel_q, rel_m;                 // a release batch
  logic [SpW-1:0] sp_q, sp_m, sp_d;   // next child to stage
  logic done_q, done_m, done_d;       // every message staged

  assign pop = (count_q != '0) && !active_q;  // killed heads are dropped the same way
  assign load = pop && head_live;

  always_comb begin
    active_m = active_q;
    idx_m = idx_q;
    rel_m = rel_q;
    sp_m = sp_q;
    done_m = done_q;
    if (load) begin
      active_m = 1'b1;
      idx_m = head_reg;
      rel_m = head_rel;
      sp_m = '0;
      done_m = 1'b0;
    end
  end

  for (genvar k = 0; k < NumRegs; k++) begin : gen_flags
    assign batch_load_o[k] = load && (head_reg == RegW'(k));
    assign emitting_o[k] = active_q && (idx_q == RegW'(k));
  end

  // ---------------------------------------------------------------------------------------
  // Read port: one register's fields and one child
  // ---------------------------------------------------------------------------------------
  logic [RegW-1:0] rd_reg;
  logic [ChildW-1:0] rd_child;
  logic [GidW-1:0] rd_gid;
  logic rd_parent_valid, rd_route, rd_child_route;
  logic [CoordXW-1:0] rd_parent_x, rd_child_x;
  logic [CoordYW-1:0] rd_parent_y, rd_child_y;
  logic [DataW-1:0] rd_slot;
  logic [NumChildrenW-1:0] rd_num_children;

  meshsync_emitter_read_mux #(
    .NumRegs      (NumRegs),
    .MaxChildren  (MaxChildren),
    .CoordXW      (CoordXW),
    .CoordYW      (CoordYW),
    .NumChildrenW (NumChildrenW)
  ) u_read (
    .rd_reg_i          (rd_reg),
    .rd_child_i        (rd_child),
    .gid_i             (gid_i),
    .parent_valid_i    (parent_valid_i),
    .parent_x_i        (parent_x_i),
    .parent_y_i        (parent_y_i),
    .route_i           (route_i),
    .slot_i            (slot_i),
    .num_children_i    (num_children_i),
    .child_x_i         (child_x_i),
    .child_y_i         (child_y_i),
    .child_route_i     (child_route_i),
    .rd_gid_o          (rd_gid),
    .rd_parent_valid_o (rd_parent_valid),
    .rd_parent_x_o     (rd_parent_x),
    .rd_parent_y_o     (rd_parent_y),
    .rd_route_o        (rd_route),
    .rd_slot_o         (rd_slot),
    .rd_num_children_o (rd_num_children),
    .rd_child_x_o      (rd_child_x),
    .rd_child_y_o      (rd_child_y),
    .rd_child_route_o  (rd_child_route)
  );

  // ---------------------------------------------------------------------------------------
  // Staging: one message per cycle
  // ---------------------------------------------------------------------------------------
  logic [CoordW-1:0] here_x, here_y;
  logic [CoordXW-1:0] st_x;
  logic [CoordYW-1:0] st_y;
  logic st_yx, st_rel, child_left, up_self, stage;
  logic [DataW-1:0] st_data;
  logic [PortW-1:0] st_port;
  logic [NumPorts-1:0] slot_v_q, slot_v_d;
  logic [NumPorts*SlotW-1:0] slot_q, slot_d;

  assign here_x = CoordW'(here_x_i);
  assign here_y = CoordW'(here_y_i);
  assign rd_reg = idx_m;
  assign rd_child = ChildW'(sp_m);
  assign up_self = !rd_parent_valid;
  assign child_left = rel_m && (CmpW'(sp_m) < CmpW'(rd_num_children)) &&
                      (sp_m < SpW'(MaxChildren));

  always_comb begin
    if (!rel_m) begin
      // The reduction message: to the parent, or to the local NI at the root.
      st_x = up_self ? here_x_i : rd_parent_x;
      st_y = up_self ? here_y_i : rd_parent_y;
      st_yx = !up_self && rd_route;
      st_data = up_self ? meshsync_pkg::SlotLocal : rd_slot;
      st_rel = 1'b0;
    end else if (child_left) begin
      st_x = rd_child_x;
      st_y = rd_child_y;
      st_yx = rd_child_route;
      st_data = '0;
      st_rel = 1'b1;
    end else begin
      // The local release.
      st_x = here_x_i;
      st_y = here_y_i;
      st_yx = 1'b0;
      st_data = '0;
      st_rel = 1'b1;
    end
  end

  meshsync_route u_route (
    .here_x_i (here_x),
    .here_y_i (here_y),
    .dest_x_i (CoordW'(st_x)),
    .dest_y_i (CoordW'(st_y)),
    .yx_i     (st_yx),
    .port_o   (st_port)
  );

  logic st_slot_full;
  always_comb begin
    st_slot_full = 1'b0;
    for (int o = 0; o < NumPorts; o++) begin
      if (st_port == PortW'(o)) st_slot_full = slot_v_q[o];
    end
  end
  assign stage = active_m && !done_m && !st_slot_full;

  // ---------------------------------------------------------------------------------------
  // Offers, per output port
  // ---------------------------------------------------------------------------------------
  logic due, child_slots;
  assign due = batch_due_i[idx_q];
  assign child_slots = |slot_v_q[NumPorts-1:1];

  logic [CoordXW-1:0] sx;
  logic [CoordYW-1:0] sy;
  logic [GidW-1:0] sg;
  logic [DataW-1:0] sd;
  logic srel, syx;
  always_comb begin
    offer_o = '0;
    offer_flit_o = '0;
    offer_vc_o = '0;
    {sx, sy, sg, sd, srel, syx} = '0;
    for (int o = 0; o < NumPorts; o++) begin
      {sx, sy, sg, sd, srel, syx} = slot_q[o*SlotW +: SlotW];
      // The Local slot holding a release is the local release: it waits for the children.
      if (slot_v_q[o] && due && credit_ok_i[o*NumVcs + (syx ? 2 : 1)] &&
          !((o == 0) && srel && child_slots)) begin
        offer_o[o] = 1'b1;
      end
      offer_vc_o[o*VcW +: VcW] = syx ? meshsync_pkg::VcSyncYx : meshsync_pkg::VcSyncXy;
      offer_flit_o[o*FlitW +: FlitW] =
          make_sync(syx, srel ? meshsync_pkg::SyncRelease : meshsync_pkg::SyncArrive,
                    sg, sd, CoordW'(sx), CoordW'(sy));
    end
  end

  // ---------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------
  always_comb begin
    slot_v_d = slot_v_q & ~(offer_o & grant_i);
    slot_d = slot_q;
    sp_d = sp_m;
    done_d = done_m;
    if (stage) begin
      for (int o = 0; o < NumPorts; o++) begin
        if (st_port == PortW'(o)) begin
          slot_v_d[o] = 1'b1;
          slot_d[o*SlotW +: SlotW] = {st_x, st_y, rd_gid, st_data, st_rel, st_yx};
        end
      end
      if (child_left) sp_d = sp_m + 1'b1;
      else done_d = 1'b1;
    end
    active_d = active_m && !written_i[idx_m] && !(done_d && (slot_v_d == '0));
    if (!active_d) slot_v_d = '0;
  end

  // FIFO next state.
  always_comb begin
    fifo_reg_d = fifo_reg_q;
    fifo_rel_d = fifo_rel_q;
    head_d = head_q;
    tail_d = tail_q;
    count_d = count_q;
    error_o = 1'b0;
    for (int i = 0; i < NumRegs; i++) begin
      fifo_live_d[i] = fifo_live_q[i] && !written_i[fifo_reg_q[i*RegW +: RegW]];
    end
    if (pop) begin
      head_d = (head_q == RegW'(NumRegs - 1)) ? '0 : head_q + 1'b1;
      count_d = count_d - 1'b1;
    end
    if (push_i) begin
      if (full && !pop) begin
        error_o = 1'b1;
      end else begin
        for (int i = 0; i < NumRegs; i++) begin
          if (tail_q == RegW'(i)) begin
            fifo_reg_d[i*RegW +: RegW] = push_reg_i;
            fifo_rel_d[i] = push_release_i;
            fifo_live_d[i] = !written_i[push_reg_i];
          end
        end
        tail_d = (tail_q == RegW'(NumRegs - 1)) ? '0 : tail_q + 1'b1;
        count_d = count_d + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      idx_q <= '0;
      rel_q <= 1'b0;
      sp_q <= '0;
      done_q <= 1'b0;
      slot_v_q <= '0;
      slot_q <= '0;
      fifo_reg_q <= '0;
      fifo_rel_q <= '0;
      fifo_live_q <= '0;
      head_q <= '0;
      tail_q <= '0;
      count_q <= '0;
    end else begin
      active_q <= active_d;
      idx_q <= idx_m;
      rel_q <= rel_m;
      sp_q <= sp_d;
      done_q <= done_d;
      slot_v_q <= slot_v_d;
      slot_q <= slot_d;
      fifo_reg_q <= fifo_reg_d;
      fifo_rel_q <= fifo_rel_d;
      fifo_live_q <= fifo_live_d;
      head_q <= head_d;
      tail_q <= tail_d;
      count_q <= count_d;
    end
  end

  assign idle_o = !active_q && (count_q == '0);

endmodule

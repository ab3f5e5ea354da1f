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
//     on its port when its (port, VC) has a credit and is free (no reduction message
//     passing through holds it); the local release only when no child's
//     slot is full (at the start of the cycle: the local process learns of the release
//     after its children, so software cannot free the register while the batch reads it).
//     A granted slot empties; the emitter is free from the cycle after the batch's last
//     message has left.
//   - A reduction (docs/reduction-hardware.md): a batch that carries a vector copies the
//     register's descriptor when it is taken. A reduction batch with children first folds
//     them into lane 4, one ALU operation a cycle from the cycle it is taken: per element,
//     the children in slot order, then the node's own element, the result in place (C
//     operations an element). A message that carries the vector keeps its slot after its
//     head leaves, and the slot offers the next flit each cycle (the descriptor, then lane
//     4's half-words, read through the stream port of its output) on a VC the emitter
//     holds, until the tail. A software write lets the worms already begun run to their
//     tails and drops the rest of the batch.
`include "meshsync_assert.svh"

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
  /// 32-bit words a reduction lane holds (0: no lanes, no reduction).
  parameter int unsigned ReduceWords = 0,
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  localparam int unsigned ChildW = (MaxChildren > 1) ? $clog2(MaxChildren) : 1,
  localparam int unsigned WordW = (ReduceWords > 1) ? $clog2(ReduceWords) : 1,
  localparam int unsigned HalfW = WordW + 1
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
  // The registers' epochs (meshsync_barrier_unit): a reduction, its descriptor, the
  // slots that arrived.
  input  logic [NumRegs-1:0]                           red_i,
  input  logic [NumRegs*meshsync_pkg::DescW-1:0]       desc_i,
  input  logic [NumRegs*meshsync_pkg::NumSlots-1:0]    operands_i,
  // The lanes of the held register (meshsync_reduction_lanes, lane_reg_o): the fold's two
  // operand reads and its write into lane 4, and per port the half-word its slot streams.
  output logic [RegW-1:0]                              lane_reg_o,
  output logic [2:0]                                   rd_lane_a_o,
  output logic [2:0]                                   rd_lane_b_o,
  output logic [WordW-1:0]                             rd_word_o,
  input  logic [63:0]                                  rd_a_i,
  input  logic [63:0]                                  rd_b_i,
  output logic                                         fold_valid_o,
  output logic                                         fold_wide_o,
  output logic [WordW-1:0]                             fold_word_o,
  output logic [63:0]                                  fold_data_o,
  output logic [meshsync_pkg::NumPorts*HalfW-1:0]      st_half_o,
  input  logic [meshsync_pkg::NumPorts*16-1:0]         st_data_i,
  // Software writes register k at the end of this cycle.
  input  logic [NumRegs-1:0]                           written_i,
  // Per output port o and VC v (bit o*NumVcs+v): a credit is available, or o is Local.
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::ClassVcs-1:0] credit_ok_i,
  // Per port o and sync VC (bit o*2 + VC - 1): the VC is free (no reduction message holds
  // it) / held by the emitter's own.
  input  logic [meshsync_pkg::NumPorts*2-1:0]          owner_free_i,
  input  logic [meshsync_pkg::NumPorts*2-1:0]          owner_mine_i,
  // The message offered to each output port, and whether it won the port.
  output logic [meshsync_pkg::NumPorts-1:0]            offer_o,
  output logic [meshsync_pkg::NumPorts*FlitW-1:0]      offer_flit_o,
  output logic [meshsync_pkg::NumPorts*meshsync_pkg::ClassVcW-1:0] offer_vc_o,
  input  logic [meshsync_pkg::NumPorts-1:0]            grant_i,
  // No batch held or queued (start of the cycle).
  output logic                                         idle_o,
  // A batch was created while the FIFO was full (killed entries still queued): dropped;
  // or the ALU was asked for an operation it does not have.
  output logic                                         error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned NumVcs = meshsync_pkg::ClassVcs;
  localparam int unsigned VcW = meshsync_pkg::ClassVcW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned CntW = $clog2(NumRegs + 1);       // FIFO occupancy
  localparam int unsigned SpW = $clog2(MaxChildren + 1);    // next child to stage
  localparam int unsigned CmpW = (SpW > NumChildrenW) ? SpW : NumChildrenW;
  localparam int unsigned DescW = meshsync_pkg::DescW;
  localparam int unsigned NumSlots = meshsync_pkg::NumSlots;
  // One slot: dest x, dest y, gid, data, release (type), R, and whether a vector follows
  // its head.
  localparam int unsigned SlotW = CoordXW + CoordYW + GidW + DataW + 3;
  // A flit's position in a reduction message (up to 2 + 2 * ReduceWords flits).
  localparam int unsigned PosW = $clog2(2 * ReduceWords + 3);

  // The ports by register and by output port.
  logic [DescW-1:0] reg_desc [NumRegs];
  logic [NumSlots-1:0] reg_ops [NumRegs];
  for (genvar k = 0; k < NumRegs; k++) begin : gen_reg_in
    assign reg_desc[k] = desc_i[k*DescW +: DescW];
    assign reg_ops[k] = operands_i[k*NumSlots +: NumSlots];
  end
  logic [NumVcs-1:0] credit_ok [NumPorts];   // by VC
  logic [1:0] owner_free [NumPorts], owner_mine [NumPorts];  // by sync VC: 0 VC 1, 1 VC 2
  logic [15:0] stream [NumPorts];             // the half-word st_half_o asked for
  for (genvar o = 0; o < NumPorts; o++) begin : gen_port_in
    assign credit_ok[o] = credit_ok_i[o*NumVcs +: NumVcs];
    assign owner_free[o] = owner_free_i[o*2 +: 2];
    assign owner_mine[o] = owner_mine_i[o*2 +: 2];
    assign stream[o] = st_data_i[o*16 +: 16];
  end

  // ---------------------------------------------------------------------------------------
  // FIFO of created batches
  // ---------------------------------------------------------------------------------------
  // The flip-flops of several entries or slots (fifo_reg_q, slot_q, pos_q) stay flat
  // vectors, element i at i*W +: W: Yosys 0.23 names an unpacked array's flip-flops
  // slot_q[0], slot_q[1], ..., and scripts/rtl-equiv pairs registers by name. The logic
  // reads them by element through views and computes each next state as an unpacked
  // array, packed at the edge.
  logic [NumRegs*RegW-1:0] fifo_reg_q;
  logic [RegW-1:0] fifo_reg [NumRegs], fifo_reg_d [NumRegs];
  logic [NumRegs-1:0] fifo_rel_q, fifo_rel_d, fifo_live_q, fifo_live_d;
  logic [RegW-1:0] head_q, head_d, tail_q, tail_d;
  logic [CntW-1:0] count_q, count_d;
  logic [RegW-1:0] head_reg;
  logic head_rel, head_live, pop, load, full;

  for (genvar i = 0; i < NumRegs; i++) begin : gen_fifo_q
    assign fifo_reg[i] = fifo_reg_q[i*RegW +: RegW];
  end
  assign head_reg = fifo_reg[head_q];
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
  // The batch carries a vector (a reduction's partial result, or an allreduce's result
  // in its releases), and the descriptor copied when it was taken: a child that has its
  // release may latch its next epoch's in the register while this batch still streams.
  logic vec_q, vec_m;
  logic [DescW-1:0] desc_q, desc_m;
  // The fold: running, the element it is at, the lanes still to combine into it, and the
  // accumulator between its operations.
  logic fold_q, fold_m, fold_n, fold_d;
  logic [15:0] elem_q, elem_m, elem_d;
  logic [NumSlots-1:0] rem_q, rem_m, rem_d;
  logic first_q, first_m, first_d;
  logic [63:0] acc_q, acc_d;

  assign pop = (count_q != '0) && !active_q;  // killed heads are dropped the same way
  assign load = pop && head_live;

  logic [DescW-1:0] head_desc;
  logic [NumSlots-1:0] head_ops;
  assign head_desc = reg_desc[head_reg];
  assign head_ops = reg_ops[head_reg];

  always_comb begin
    active_m = active_q;
    idx_m = idx_q;
    rel_m = rel_q;
    sp_m = sp_q;
    done_m = done_q;
    vec_m = vec_q;
    desc_m = desc_q;
    fold_m = fold_q;
    elem_m = elem_q;
    rem_m = rem_q;
    first_m = first_q;
    if (load) begin
      active_m = 1'b1;
      idx_m = head_reg;
      rel_m = head_rel;
      sp_m = '0;
      done_m = 1'b0;
      // A release carries the result only for an allreduce (desc bit 5).
      vec_m = (ReduceWords > 0) && red_i[head_reg] && (!head_rel || head_desc[5]);
      desc_m = head_desc;
      // A reduction batch with children and elements folds first.
      fold_m = (ReduceWords > 0) && !head_rel && red_i[head_reg] && (|head_ops[NumSlots-2:0]) &&
               (head_desc[21:6] != '0);
      elem_m = '0;
      rem_m = head_ops;
      first_m = 1'b1;
    end
  end

  for (genvar k = 0; k < NumRegs; k++) begin : gen_flags
    assign batch_load_o[k] = load && (head_reg == RegW'(k));
    assign emitting_o[k] = active_q && (idx_q == RegW'(k));
  end

  // ---------------------------------------------------------------------------------------
  // The fold: one ALU operation a cycle
  // ---------------------------------------------------------------------------------------
  // The lowest and the next lane still to combine; an element's first operation reads
  // two lanes, each later one the accumulator and one lane.
  logic [2:0] lane_lo, lane_next;
  logic [NumSlots-1:0] rem_after;
  logic last_op, wide;
  logic [63:0] op_a, result;
  logic alu_error;
  always_comb begin
    lane_lo = '0;
    lane_next = '0;
    for (int l = NumSlots - 1; l >= 0; l--) begin
      if (rem_m[l]) begin
        lane_next = lane_lo;
        lane_lo = 3'(l);
      end
    end
    rem_after = rem_m & ~(NumSlots'(1) << lane_lo);
    if (first_m) rem_after = rem_after & ~(NumSlots'(1) << lane_next);
  end
  assign last_op = rem_after == '0;
  assign wide = desc_m[4:3] == meshsync_pkg::ReduceInt64;
  // The batch's register (the one loaded this cycle, when it is taken).
  assign lane_reg_o = idx_m;
  assign rd_lane_a_o = lane_lo;
  assign rd_lane_b_o = first_m ? lane_next : lane_lo;
  assign rd_word_o = WordW'(wide ? {elem_m[14:0], 1'b0} : elem_m);
  assign op_a = first_m ? rd_a_i : acc_q;

  meshsync_reduction_alu u_alu (
    .op_i     (desc_m[2:0]),
    .type_i   (desc_m[4:3]),
    .a_i      (op_a),
    .b_i      (rd_b_i),
    .result_o (result),
    .error_o  (alu_error)
  );

  assign fold_valid_o = fold_m && last_op;
  assign fold_wide_o = wide;
  assign fold_word_o = rd_word_o;
  assign fold_data_o = result;

  always_comb begin
    fold_n = fold_m;
    elem_d = elem_m;
    rem_d = rem_m;
    first_d = first_m;
    acc_d = acc_q;
    if (fold_m) begin
      acc_d = result;
      rem_d = rem_after;
      first_d = 1'b0;
      if (last_op) begin
        // The element is in lane 4: the next one starts from all the operands.
        elem_d = elem_m + 1'b1;
        rem_d = reg_ops[idx_m];
        first_d = 1'b1;
        fold_n = elem_d != desc_m[21:6];
      end
    end
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
  logic st_yx, st_rel, st_vec, child_left, up_self, stage;
  logic [DataW-1:0] st_data;
  logic [PortW-1:0] st_port;
  logic [NumPorts-1:0] slot_v_q, slot_v_d;
  logic [NumPorts*SlotW-1:0] slot_q;
  logic [SlotW-1:0] slot [NumPorts], slot_d [NumPorts];
  // Per slot, the position of the flit it offers (0: the head).
  logic [NumPorts*PosW-1:0] pos_q;
  logic [PosW-1:0] pos [NumPorts], pos_d [NumPorts];
  for (genvar o = 0; o < NumPorts; o++) begin : gen_slot_q
    assign slot[o] = slot_q[o*SlotW +: SlotW];
    assign pos[o] = pos_q[o*PosW +: PosW];
  end

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
  // The fold comes first; a reduction's result goes up to the parent, to the root's NI for
  // a reduce, and down the distribution for an allreduce.
  assign stage = active_m && !done_m && !st_slot_full && !fold_m;
  assign st_vec = vec_m && (rel_m || !up_self || !desc_m[5]);

  // ---------------------------------------------------------------------------------------
  // Offers, per output port
  // ---------------------------------------------------------------------------------------
  logic due, child_slots;
  assign due = batch_due_i[idx_q];
  assign child_slots = |slot_v_q[NumPorts-1:1];

  // The flit a slot offers: the head, the descriptor, or a half-word of lane 4; the last
  // of its message is its tail.
  logic [18:0] flits;
  assign flits = 19'd2 + ((desc_q[4:3] == meshsync_pkg::ReduceInt64) ? {1'b0, desc_q[21:6], 2'b0} : {2'b0, desc_q[21:6], 1'b0});
  logic [CoordXW-1:0] sx;
  logic [CoordYW-1:0] sy;
  logic [GidW-1:0] sg;
  logic [DataW-1:0] sd;
  logic srel, syx, svec, stail;
  logic [PosW-1:0] spos;
  logic [VcW-1:0] svc;
  // Per port the flit offered, its VC, and whether it is its message's tail. The flit is
  // built in a struct at module level, not by a function: Yosys 0.23 takes no struct as a
  // function's argument or result, and sizes none declared in a generate block.
  meshsync_pkg::flit_t flit;
  logic [FlitW-1:0] offer_flit [NumPorts];
  logic [VcW-1:0] offer_vc [NumPorts];
  logic [NumPorts-1:0] offer_tail;
  always_comb begin
    offer_o = '0;
    offer_tail = '0;
    {sx, sy, sg, sd, srel, syx, svec} = '0;
    spos = '0;
    svc = '0;
    stail = 1'b0;
    flit = '0;
    for (int o = 0; o < NumPorts; o++) begin
      {sx, sy, sg, sd, srel, syx, svec} = slot[o];
      spos = pos[o];
      stail = !svec || (19'(spos) + 19'd1 == flits);
      svc = syx ? meshsync_pkg::VcSyncYx : meshsync_pkg::VcSyncXy;
      // The Local slot holding a release is the local release: it waits for the children.
      // A head needs its VC free, the flits after it the VC their head took.
      if (slot_v_q[o] && due && credit_ok[o][svc] &&
          ((spos == '0) ? owner_free[o][syx] : owner_mine[o][syx]) &&
          !((o == 0) && srel && child_slots)) begin
        offer_o[o] = 1'b1;
      end
      offer_vc[o] = svc;
      flit = '0;
      if (spos == '0) begin
        // The head: a sync message, an arrival or a release, with a vector behind it or
        // alone.
        flit.head = 1'b1;
        flit.tail = !svec;
        flit.f.hdr.sync = 1'b1;
        flit.f.hdr.route = syx;
        flit.f.hdr.view.sync.msg = srel ? meshsync_pkg::SyncRelease : meshsync_pkg::SyncArrive;
        flit.f.hdr.view.sync.gid = sg;
        flit.f.hdr.view.sync.data = sd;
        flit.f.hdr.dest_y = CoordW'(sy);
        flit.f.hdr.dest_x = CoordW'(sx);
      end else begin
        flit.tail = stail;
        flit.f.payload[15:0] = stream[o];
        if (spos == PosW'(1)) flit.f.payload[DescW-1:0] = desc_q;
      end
      offer_flit[o] = flit;
      offer_tail[o] = flit.tail;
    end
  end

  // The offers, packed for the ports; and each slot reads the half-word it streams: flit
  // 2 + h carries half-word h of lane 4.
  for (genvar o = 0; o < NumPorts; o++) begin : gen_port_out
    assign offer_flit_o[o*FlitW +: FlitW] = offer_flit[o];
    assign offer_vc_o[o*VcW +: VcW] = offer_vc[o];
    assign st_half_o[o*HalfW +: HalfW] = HalfW'(pos[o] - PosW'(2));
  end

  // ---------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------
  logic [NumPorts-1:0] streaming;
  always_comb begin
    slot_v_d = slot_v_q;
    for (int o = 0; o < NumPorts; o++) begin
      slot_d[o] = slot[o];
      pos_d[o] = pos[o];
    end
    sp_d = sp_m;
    done_d = done_m;
    fold_d = fold_n;
    // A granted tail empties its slot; any other flit moves its slot on.
    for (int o = 0; o < NumPorts; o++) begin
      if (offer_o[o] && grant_i[o]) begin
        if (offer_tail[o]) slot_v_d[o] = 1'b0;
        else pos_d[o] = pos[o] + 1'b1;
      end
    end
    if (stage) begin
      for (int o = 0; o < NumPorts; o++) begin
        if (st_port == PortW'(o)) begin
          slot_v_d[o] = 1'b1;
          slot_d[o] = {st_x, st_y, rd_gid, st_data, st_rel, st_yx, st_vec};
          pos_d[o] = '0;
        end
      end
      if (child_left) sp_d = sp_m + 1'b1;
      else done_d = 1'b1;
    end
    // A software write to the register: a message whose head has left runs to its tail
    // (its VC and the receiver's context are freed), nothing else of the batch is sent.
    for (int o = 0; o < NumPorts; o++) begin
      streaming[o] = slot_v_d[o] && (pos_d[o] != '0);
    end
    if (written_i[idx_m]) begin
      slot_v_d = streaming;
      done_d = 1'b1;
      fold_d = 1'b0;
    end
    active_d = active_m && !(done_d && (slot_v_d == '0));
    if (!active_d) slot_v_d = '0;
  end

  // FIFO next state.
  always_comb begin
    fifo_rel_d = fifo_rel_q;
    head_d = head_q;
    tail_d = tail_q;
    count_d = count_q;
    error_o = fold_m && alu_error;
    for (int i = 0; i < NumRegs; i++) begin
      fifo_reg_d[i] = fifo_reg[i];
      fifo_live_d[i] = fifo_live_q[i] && !written_i[fifo_reg[i]];
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
            fifo_reg_d[i] = push_reg_i;
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
      pos_q <= '0;
      vec_q <= 1'b0;
      desc_q <= '0;
      fold_q <= 1'b0;
      elem_q <= '0;
      rem_q <= '0;
      first_q <= 1'b0;
      acc_q <= '0;
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
      for (int o = 0; o < NumPorts; o++) begin
        slot_q[o*SlotW +: SlotW] <= slot_d[o];
        pos_q[o*PosW +: PosW] <= pos_d[o];
      end
      vec_q <= vec_m;
      desc_q <= desc_m;
      fold_q <= fold_d;
      elem_q <= elem_d;
      rem_q <= rem_d;
      first_q <= first_d;
      acc_q <= acc_d;
      for (int i = 0; i < NumRegs; i++) begin
        fifo_reg_q[i*RegW +: RegW] <= fifo_reg_d[i];
      end
      fifo_rel_q <= fifo_rel_d;
      fifo_live_q <= fifo_live_d;
      head_q <= head_d;
      tail_q <= tail_d;
      count_q <= count_d;
    end
  end

  assign idle_o = !active_q && (count_q == '0);

  // Cover points (scripts/coverage): each cause of error_o here (an operation the element
  // type has not, a batch into a full FIFO), and each reduction operation folded on each
  // element type (meshsync_pkg::reduce_op_t by reduce_type_t; the bitwise operations have
  // no float32 form).
  `COVER(AluError_C, fold_m && alu_error)
  `COVER(FifoFullError_C, push_i && full && !pop)
  if (ReduceWords > 0) begin : gen_cover_fold
    for (genvar op = 0; op < 6; op++) begin : gen_op
      for (genvar ty = 0; ty < 3; ty++) begin : gen_type
        if (!((op >= 3) && (ty == 2))) begin : gen_valid
          `COVER(Folded_C, fold_m && (desc_m[2:0] == 3'(op)) && (desc_m[4:3] == 2'(ty)))
        end
      end
    end
  end

`ifdef MESHSYNC_FORMAL_BARRIER_EMITTER
  `include "barrier_emitter.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

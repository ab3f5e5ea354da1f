// The barrier unit (contract step 5, router_core.cpp barrier_unit): it takes at most one
// sync flit per cycle, round robin over the inputs that offer one, and never waits for
// the emitter:
//   - setup / teardown passing through: not taken; their CS transit entry is opened /
//     closed (cs_*_o, to the register file) and the input marks them done;
//   - setup / teardown at the end of their path: consumed without effect;
//   - arrive (reduction): set the flag of the sender's slot, count; when the children and
//     the local process have all arrived, clear, and the register has a batch to send
//     (its reduction message);
//   - release (distribution): the register has a batch to send (its releases);
//   - no member register for the message any more (freed since its arrival): not taken,
//     the input relabels it for the NI;
//   - a reduction message (a sync worm, docs/reduction-hardware.md): its head is checked
//     against the epoch (kind, release payload, slot) and opens a context for its
//     (input, sync VC); its descriptor is latched for the epoch or compared with it; each
//     half-word goes to its lane (lanes_*_o); at its tail it counts as an arrival or a
//     release, with the head's delay (the context counts it down meanwhile).
// A batch may leave from the cycle its message was ready (arrival + Trm - 1): the unit
// pushes each batch it creates into the emitter's FIFO (register and kind) and keeps, per
// register, a pending bit (created, not yet taken by the emitter) and a countdown to that
// cycle (batch_due_o: run out). Software writes to a register cancel its batch.
`include "meshsync_assert.svh"

module meshsync_barrier_unit #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Barrier registers (>= 1).
  parameter int unsigned NumRegs = 4,
  /// Width of a register's child count.
  parameter int unsigned NumChildrenW = 4,
  /// Width of a register's arrival counter.
  parameter int unsigned ArrivedW = 4,
  /// Width of the delay countdowns (the sync VCs' and the batches').
  parameter int unsigned CntW = 5,
  /// 32-bit words a reduction lane holds (0: no lanes; a reduction message is an error).
  parameter int unsigned ReduceWords = 0,
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  // A flit's position in a reduction message: up to 2 + 2 * ReduceWords flits.
  localparam int unsigned PosW = $clog2(2 * ReduceWords + 3),
  // A half-word's index in a lane.
  localparam int unsigned HalfW = ((ReduceWords > 1) ? $clog2(ReduceWords) : 1) + 1
) (
  input  logic                                       clk_i,
  input  logic                                       rst_ni,
  // Inputs offering a flit to the unit, their front flits, VCs and remaining delays.
  input  logic [meshsync_pkg::NumPorts-1:0]          consume_i,
  input  logic [meshsync_pkg::NumPorts-1:0]          cs_i,
  input  logic [meshsync_pkg::NumPorts*FlitW-1:0]    flit_i,
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::ClassVcW-1:0] vc_i,
  input  logic [meshsync_pkg::NumPorts*CntW-1:0]     cnt_i,
  // The flit taken (its input pops) or relabelled for the NI.
  output logic [meshsync_pkg::NumPorts-1:0]          take_o,
  output logic [meshsync_pkg::NumPorts-1:0]          relabel_o,
  output logic [meshsync_pkg::NumPorts-1:0]          cs_done_o,
  // The CS transit update of this cycle (setup: open, else close), for the register file.
  output logic                                       cs_valid_o,
  output logic                                       cs_setup_o,
  output logic [meshsync_pkg::GidW-1:0]              cs_gid_o,
  // Register file, current state.
  input  logic [NumRegs-1:0]                         valid_i,
  input  logic [NumRegs-1:0]                         member_i,
  input  logic [NumRegs-1:0]                         transit_i,
  input  logic [NumRegs-1:0]                         parent_valid_i,
  input  logic [NumRegs*meshsync_pkg::GidW-1:0]      gid_i,
  input  logic [NumRegs*NumChildrenW-1:0]            num_children_i,
  input  logic [NumRegs*meshsync_pkg::NumSlots-1:0]  flags_i,
  input  logic [NumRegs*ArrivedW-1:0]                arrived_i,
  // Reduction state after this cycle.
  output logic [NumRegs*meshsync_pkg::NumSlots-1:0]  flags_o,
  output logic [NumRegs*ArrivedW-1:0]                arrived_o,
  // Per register, what its epoch is (current state): a reduction, its descriptor, and
  // the slots that had arrived at completion (the fold's operands).
  output logic [NumRegs-1:0]                         red_o,
  output logic [NumRegs*meshsync_pkg::DescW-1:0]     desc_o,
  output logic [NumRegs*meshsync_pkg::NumSlots-1:0]  operands_o,
  // The half-word of a reduction message taken this cycle, for its lane.
  output logic                                       lane_valid_o,
  output logic [RegW-1:0]                            lane_reg_o,
  output logic [2:0]                                 lane_o,
  output logic [HalfW-1:0]                           lane_half_o,
  output logic [15:0]                                lane_data_o,
  // The batch created this cycle, for the emitter's FIFO: register and kind (1: releases).
  output logic                                       batch_push_o,
  output logic [RegW-1:0]                            batch_push_reg_o,
  output logic                                       batch_push_release_o,
  // Per register: its batch's countdown has run out (it may leave from this cycle on).
  output logic [NumRegs-1:0]                         batch_due_o,
  // The emitter takes register k's batch this cycle / holds register k's batch.
  input  logic [NumRegs-1:0]                         batch_load_i,
  input  logic [NumRegs-1:0]                         emitting_i,
  // Software writes register k at the end of this cycle: its batch is cancelled, its
  // epoch starts afresh, and its open reduction messages are dropped.
  input  logic [NumRegs-1:0]                         written_i,
  // No batch pending and no reduction message counting down its delay (state at the
  // start of the cycle).
  output logic                                       idle_o,
  // Protocol violation: an arrival on a flag already set in this epoch, a slot number the
  // contract does not define (5..14), a batch while the register's previous one waits, or
  // a reduction message the register cannot take (docs/reduction-hardware.md, "Errors").
  output logic                                       error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned NumSlots = meshsync_pkg::NumSlots;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  localparam int unsigned DescW = meshsync_pkg::DescW;
  localparam int unsigned VcW = meshsync_pkg::ClassVcW;
  localparam int unsigned PortIdxW = $clog2(NumPorts);
  localparam int unsigned CountW = (ArrivedW > NumChildrenW) ? ArrivedW : NumChildrenW;
  // Contexts: one per input port and sync VC (VC 1, VC 2).
  localparam int unsigned NumCtx = 2 * NumPorts;
  // Without lanes every reduction message is refused at its head, so no epoch is ever a
  // reduction and the state below is constant (synthesis removes it).
  localparam bit Reduce = ReduceWords > 0;

  // ---------------------------------------------------------------------------------------
  // One flit: round robin over the offering inputs
  // ---------------------------------------------------------------------------------------
  logic [PortIdxW-1:0] sel;
  logic sel_valid;

  meshsync_rr_arbiter #(
    .NumReq (NumPorts)
  ) u_pick (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (consume_i),
    .keep_i      (1'b1),
    .gnt_valid_o (sel_valid),
    .gnt_idx_o   (sel)
  );

  // The inputs' front flits, VCs and remaining delays, by input.
  logic [FlitW-1:0] flit [NumPorts];
  logic [VcW-1:0] vc [NumPorts];
  logic [CntW-1:0] cnt [NumPorts];
  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    assign flit[p] = flit_i[p*FlitW +: FlitW];
    assign vc[p] = vc_i[p*VcW +: VcW];
    assign cnt[p] = cnt_i[p*CntW +: CntW];
  end

  meshsync_pkg::flit_t msg;
  logic [CntW-1:0] msg_cnt;
  logic [1:0] msg_type;
  logic [GidW-1:0] msg_gid;
  logic [DataW-1:0] msg_slot;
  logic head, tail, is_arrive, is_release, control, cs, body, vector;
  logic [NumRegs-1:0] hit;
  logic [$clog2(NumCtx)-1:0] ctx_idx;

  assign msg = flit[sel];
  assign msg_cnt = cnt[sel];
  assign msg_type = msg.f.hdr.view.sync.msg;
  assign msg_gid = msg.f.hdr.view.sync.gid;
  assign msg_slot = msg.f.hdr.view.sync.data;
  assign head = msg.head;
  assign tail = msg.tail;
  assign control = msg_type[1];
  assign cs = cs_i[sel];
  // A head with tail = 0 heads a reduction message: a vector follows.
  assign vector = !tail;
  assign body = sel_valid && !cs && !head;
  assign is_arrive = sel_valid && !cs && head && (msg_type == meshsync_pkg::SyncArrive);
  assign is_release = sel_valid && !cs && head && (msg_type == meshsync_pkg::SyncRelease);
  assign cs_valid_o = sel_valid && cs;
  assign cs_setup_o = msg_type == meshsync_pkg::SyncSetup;
  assign cs_gid_o = msg_gid;
  // The context of the flit's input and sync VC.
  assign ctx_idx = $clog2(NumCtx)'({sel, vc[sel] == meshsync_pkg::VcSyncYx});

  // The member register of the message's group.
  meshsync_group_cam #(
    .NumRegs (NumRegs)
  ) u_cam (
    .valid_i (valid_i & member_i),
    .gid_i   (gid_i),
    .key_i   (msg_gid),
    .hit_o   (hit)
  );

  always_comb begin
    take_o = '0;
    relabel_o = '0;
    cs_done_o = '0;
    if (sel_valid) begin
      if (cs) begin
        cs_done_o[sel] = 1'b1;
      end else if (!head || control || (|hit)) begin
        take_o[sel] = 1'b1;
      end else begin
        relabel_o[sel] = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Reduction messages: contexts, descriptor checks, lane writes
  // ---------------------------------------------------------------------------------------
  // Per register: the epoch's kind (set by its first arrival head), and its descriptor
  // (latched by its first descriptor; the value stays after completion for the fold and
  // the release).
  // The flip-flops of several registers or contexts stay flat vectors, element i at
  // i*W +: W (desc_q and operands_q are output ports as they are): Yosys 0.23 names an
  // unpacked array's flip-flops desc_q[0], desc_q[1], ..., and scripts/rtl-equiv pairs
  // registers by name. The logic reads them by element through the views below and
  // computes each next state as an unpacked array, packed at the edge.
  logic [NumRegs-1:0] kind_set_q, kind_set_d, red_q, red_d, desc_set_q, desc_set_d;
  logic [NumRegs*DescW-1:0] desc_q;
  logic [NumRegs*NumSlots-1:0] operands_q;
  logic [DescW-1:0] desc [NumRegs], desc_d [NumRegs];
  logic [NumSlots-1:0] operands [NumRegs], operands_d [NumRegs];
  // Per context: a message is open, still of its register's epoch (no software write
  // since its head), its register, a release (lane 4) or the child slot of an arrival
  // (its lane), the position of its next flit, its length once the descriptor is in, and
  // the countdown of its head's delay.
  logic [NumCtx-1:0] c_open_q, c_open_d, c_live_q, c_live_d, c_rel_q, c_rel_d;
  logic [NumCtx*RegW-1:0] c_reg_q;
  logic [NumCtx*3-1:0] c_slot_q;
  logic [NumCtx*PosW-1:0] c_pos_q, c_len_q;
  logic [NumCtx*CntW-1:0] c_cnt_q;
  logic [RegW-1:0] c_reg [NumCtx], c_reg_d [NumCtx];
  logic [2:0] c_slot [NumCtx], c_slot_d [NumCtx];
  logic [PosW-1:0] c_pos [NumCtx], c_pos_d [NumCtx], c_len [NumCtx], c_len_d [NumCtx];
  logic [CntW-1:0] c_cnt [NumCtx], c_cnt_d [NumCtx];
  for (genvar k = 0; k < NumRegs; k++) begin : gen_reg_q
    assign desc[k] = desc_q[k*DescW +: DescW];
    assign operands[k] = operands_q[k*NumSlots +: NumSlots];
  end
  for (genvar x = 0; x < NumCtx; x++) begin : gen_ctx_q
    assign c_reg[x] = c_reg_q[x*RegW +: RegW];
    assign c_slot[x] = c_slot_q[x*3 +: 3];
    assign c_pos[x] = c_pos_q[x*PosW +: PosW];
    assign c_len[x] = c_len_q[x*PosW +: PosW];
    assign c_cnt[x] = c_cnt_q[x*CntW +: CntW];
  end

  // The register file's state by register.
  logic [NumChildrenW-1:0] num_children [NumRegs];
  logic [NumSlots-1:0] flags_now [NumRegs];
  logic [ArrivedW-1:0] arrived_now [NumRegs];
  for (genvar k = 0; k < NumRegs; k++) begin : gen_reg_in
    assign num_children[k] = num_children_i[k*NumChildrenW +: NumChildrenW];
    assign flags_now[k] = flags_i[k*NumSlots +: NumSlots];
    assign arrived_now[k] = arrived_i[k*ArrivedW +: ArrivedW];
  end

  // The register a one-hot vector names (the CAM's hit, the batch created).
  function automatic logic [RegW-1:0] index_of(input logic [NumRegs-1:0] onehot);
    index_of = '0;
    for (int k = 0; k < NumRegs; k++) begin
      if (onehot[k]) index_of = RegW'(k);
    end
  endfunction

  // The head's register.
  logic [RegW-1:0] hit_idx;
  assign hit_idx = index_of(hit);

  // This flit's context.
  logic cx_open, cx_live, cx_rel;
  logic [RegW-1:0] cx_reg;
  logic [2:0] cx_slot;
  logic [PosW-1:0] cx_pos, cx_len;
  logic [CntW-1:0] cx_cnt;
  assign cx_open = c_open_q[ctx_idx];
  assign cx_live = c_live_q[ctx_idx];
  assign cx_rel = c_rel_q[ctx_idx];
  assign cx_reg = c_reg[ctx_idx];
  assign cx_slot = c_slot[ctx_idx];
  assign cx_pos = c_pos[ctx_idx];
  assign cx_len = c_len[ctx_idx];
  assign cx_cnt = c_cnt[ctx_idx];

  // The descriptor a body flit at position 1 carries (its payload's bits 21:0), and what
  // it says.
  logic [DescW-1:0] dsc, reg_desc;
  logic [2:0] dsc_op;
  logic [1:0] dsc_type;
  logic [15:0] dsc_count;
  logic [17:0] dsc_words;
  logic [PosW-1:0] dsc_len;
  logic dsc_bad, dsc_long, is_desc, is_half, body_live;
  assign dsc = msg.f.payload[DescW-1:0];
  assign dsc_op = dsc[2:0];
  assign dsc_type = dsc[4:3];
  assign dsc_count = dsc[21:6];
  assign dsc_words = (dsc_type == meshsync_pkg::ReduceInt64) ? {1'b0, dsc_count, 1'b0} : {2'b0, dsc_count};
  // Names no operation of its type, or sets bits above the count.
  assign dsc_bad = (dsc_op > 3'(meshsync_pkg::ReduceXor)) || (dsc_type > 2'(meshsync_pkg::ReduceFloat32)) ||
                   (msg.f.payload[29:DescW] != '0) ||
                   ((dsc_type == meshsync_pkg::ReduceFloat32) && (dsc_op > 3'(meshsync_pkg::ReduceMax)));
  assign dsc_long = dsc_words > 18'(ReduceWords);
  assign dsc_len = PosW'(2 + 2 * dsc_words);
  assign reg_desc = desc[cx_reg];
  assign body_live = body && cx_open && cx_live;
  assign is_desc = body_live && (cx_pos == PosW'(1));
  assign is_half = body_live && (cx_pos != PosW'(1));
  // The message's length as of this flit.
  logic [PosW-1:0] len_now;
  assign len_now = is_desc ? dsc_len : cx_len;

  assign lane_valid_o = is_half;
  assign lane_reg_o = cx_reg;
  assign lane_o = cx_rel ? 3'(meshsync_pkg::SlotLocal) : cx_slot;
  assign lane_half_o = HalfW'(cx_pos - PosW'(2));
  assign lane_data_o = msg.f.payload[15:0];

  // Errors of a reduction message (each is the model's violation in the same cycle).
  logic no_head_error, desc_error, frame_error, head_error;
  // A body flit with no message open on its input and VC.
  assign no_head_error = body && !cx_open;
  // A descriptor the register cannot take: no operation, longer than a lane, or not the
  // epoch's (a release's must equal the latched one; an arrival's the latched one if any).
  assign desc_error = is_desc && (dsc_bad || dsc_long ||
                                  ((cx_rel || desc_set_q[cx_reg]) && (dsc != reg_desc)));
  // The tail where the descriptor does not put it.
  assign frame_error = body_live && (tail != ((PosW+1)'(cx_pos) + 1'b1 == (PosW+1)'(len_now)));

  // A head of a member register: its kind against the epoch's, and what its payload needs.
  always_comb begin
    head_error = 1'b0;
    for (int k = 0; k < NumRegs; k++) begin
      if (hit[k] && (is_arrive || is_release)) begin
        if (Reduce && is_arrive && kind_set_q[k] && (red_q[k] != vector)) head_error = 1'b1;
        // An allreduce's result comes down with the release (not at the root, whose NI
        // relays nothing: the result is in its lane 4 already).
        if (is_release && (vector != (parent_valid_i[k] && red_q[k] && desc[k][5]))) head_error = 1'b1;
        if (vector) begin
          if (transit_i[k] || !Reduce) head_error = 1'b1;
          // An arrival names a lane, once an epoch.
          if (is_arrive && (msg_slot > meshsync_pkg::SlotLocal)) head_error = 1'b1;
          for (int s = 0; s < NumSlots; s++) begin
            if (is_arrive && (msg_slot == DataW'(s)) && flags_now[k][s]) head_error = 1'b1;
          end
        end
      end
    end
  end

  // A whole message this cycle: a head alone, or a reduction message's tail.
  logic ev_body;
  logic [NumRegs-1:0] ev_arrive, ev_release;
  logic [DataW-1:0] ev_slot;
  logic [CntW-1:0] ev_cnt;
  assign ev_body = body_live && tail;
  always_comb begin
    for (int k = 0; k < NumRegs; k++) begin
      ev_arrive[k] = ev_body ? (!cx_rel && (cx_reg == RegW'(k))) : (hit[k] && is_arrive && tail);
      ev_release[k] = ev_body ? (cx_rel && (cx_reg == RegW'(k))) : (hit[k] && is_release && tail);
    end
  end
  assign ev_slot = ev_body ? DataW'(cx_slot) : msg_slot;
  // Its slot's flag (none for a CS child's slot 15).
  logic [NumSlots-1:0] slot_bit;
  always_comb begin
    slot_bit = '0;
    for (int s = 0; s < NumSlots; s++) begin
      if (ev_slot == DataW'(s)) slot_bit[s] = 1'b1;
    end
  end
  assign ev_cnt = ev_body ? cx_cnt : msg_cnt;

  always_comb begin
    c_open_d = c_open_q;
    c_live_d = c_live_q;
    c_rel_d = c_rel_q;
    for (int x = 0; x < NumCtx; x++) begin
      c_reg_d[x] = c_reg[x];
      c_slot_d[x] = c_slot[x];
      c_pos_d[x] = c_pos[x];
      c_len_d[x] = c_len[x];
      // Each open message's head delay runs down.
      c_cnt_d[x] = (c_cnt[x] == '0) ? '0 : c_cnt[x] - 1'b1;
    end
    // A head of a member register with a vector behind it opens its context.
    if (Reduce && (is_arrive || is_release) && vector && (|hit)) begin
      c_open_d[ctx_idx] = 1'b1;
      c_live_d[ctx_idx] = 1'b1;
      c_rel_d[ctx_idx] = is_release;
      c_reg_d[ctx_idx] = hit_idx;
      c_slot_d[ctx_idx] = msg_slot[2:0];
      c_pos_d[ctx_idx] = PosW'(1);
      c_cnt_d[ctx_idx] = (msg_cnt == '0) ? '0 : msg_cnt - 1'b1;
    end
    if (body && cx_open) begin
      c_pos_d[ctx_idx] = cx_pos + 1'b1;
      if (is_desc) c_len_d[ctx_idx] = dsc_len;
      if (tail) c_open_d[ctx_idx] = 1'b0;
    end
    // A software write starts the register afresh: its open messages' remaining flits are
    // taken and dropped.
    for (int x = 0; x < NumCtx; x++) begin
      if (written_i[c_reg_d[x]]) c_live_d[x] = 1'b0;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Reduction state and batches
  // ---------------------------------------------------------------------------------------
  logic [NumRegs-1:0] pend_q, pend_d, create;
  logic [NumRegs*CntW-1:0] due_q;  // flat, as the flip-flops above
  logic [CntW-1:0] due [NumRegs], due_d [NumRegs];
  for (genvar k = 0; k < NumRegs; k++) begin : gen_due_q
    assign due[k] = due_q[k*CntW +: CntW];
  end
  logic [NumRegs-1:0] slot_error, dup_error;
  // A batch may go in the cycle after it is created, and not before its message is ready.
  logic [CntW-1:0] due_new;
  assign due_new = (ev_cnt == '0) ? '0 : ev_cnt - 1'b1;

  for (genvar k = 0; k < NumRegs; k++) begin : gen_reg
    logic [NumSlots-1:0] flags;
    logic [ArrivedW-1:0] arrived;
    logic complete;

    always_comb begin
      flags = flags_now[k];
      arrived = arrived_now[k];
      slot_error[k] = 1'b0;
      complete = 1'b0;
      if (ev_arrive[k]) begin
        for (int s = 0; s < NumSlots; s++) begin
          if (ev_slot == DataW'(s)) begin
            slot_error[k] = flags[s];
            flags[s] = 1'b1;
          end
        end
        if ((ev_slot >= DataW'(NumSlots)) && (ev_slot != meshsync_pkg::SlotNone)) begin
          slot_error[k] = 1'b1;
        end
        if (CountW'(arrived) >= CountW'(num_children[k])) begin
          // Children + local all here: clear for the next epoch, which may say what it
          // is; the descriptor stays for the fold, which reads these operands.
          complete = 1'b1;
          flags = '0;
          arrived = '0;
        end else begin
          arrived = arrived + 1'b1;
        end
      end
    end

    // The epoch: the first arrival head says what it is, the first descriptor what it
    // reduces; completion lets the next epoch say so again (the descriptor's value stays
    // for the fold, which reads the flags at completion), and so does a software write.
    always_comb begin
      operands_d[k] = operands[k];
      kind_set_d[k] = kind_set_q[k];
      red_d[k] = red_q[k];
      desc_set_d[k] = desc_set_q[k];
      desc_d[k] = desc[k];
      if (Reduce && hit[k] && is_arrive && !kind_set_q[k]) begin
        kind_set_d[k] = 1'b1;
        red_d[k] = vector;
      end
      if (is_desc && !cx_rel && (cx_reg == RegW'(k)) && !desc_set_q[k]) begin
        desc_set_d[k] = 1'b1;
        desc_d[k] = dsc;
      end
      if (Reduce && complete) begin
        operands_d[k] = flags_now[k] | slot_bit;
        kind_set_d[k] = 1'b0;
        desc_set_d[k] = 1'b0;
      end
      if (written_i[k]) begin
        kind_set_d[k] = 1'b0;
        red_d[k] = 1'b0;
        desc_set_d[k] = 1'b0;
      end
    end

    assign flags_o[k*NumSlots +: NumSlots] = flags;
    assign arrived_o[k*ArrivedW +: ArrivedW] = arrived;
    assign create[k] = complete || ev_release[k];
    assign dup_error[k] = create[k] && (pend_q[k] || emitting_i[k]);

    always_comb begin
      pend_d[k] = pend_q[k] && !batch_load_i[k];
      due_d[k] = (due[k] == '0) ? '0 : due[k] - 1'b1;
      if (create[k]) begin
        pend_d[k] = 1'b1;
        due_d[k] = due_new;
      end
      if (written_i[k]) pend_d[k] = 1'b0;
    end

    assign batch_due_o[k] = due[k] == '0;
  end

  // At most one batch a cycle (one flit a cycle, one register per GID).
  assign batch_push_o = |create;
  assign batch_push_release_o = |ev_release;
  assign batch_push_reg_o = index_of(create);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pend_q <= '0;
      due_q <= '0;
      kind_set_q <= '0;
      red_q <= '0;
      desc_set_q <= '0;
      desc_q <= '0;
      operands_q <= '0;
      c_open_q <= '0;
      c_live_q <= '0;
      c_rel_q <= '0;
      c_reg_q <= '0;
      c_slot_q <= '0;
      c_pos_q <= '0;
      c_len_q <= '0;
      c_cnt_q <= '0;
    end else begin
      pend_q <= pend_d;
      kind_set_q <= kind_set_d;
      red_q <= red_d;
      desc_set_q <= desc_set_d;
      for (int k = 0; k < NumRegs; k++) begin
        due_q[k*CntW +: CntW] <= due_d[k];
        desc_q[k*DescW +: DescW] <= desc_d[k];
        operands_q[k*NumSlots +: NumSlots] <= operands_d[k];
      end
      c_open_q <= c_open_d;
      c_live_q <= c_live_d;
      c_rel_q <= c_rel_d;
      for (int x = 0; x < NumCtx; x++) begin
        c_reg_q[x*RegW +: RegW] <= c_reg_d[x];
        c_slot_q[x*3 +: 3] <= c_slot_d[x];
        c_pos_q[x*PosW +: PosW] <= c_pos_d[x];
        c_len_q[x*PosW +: PosW] <= c_len_d[x];
        c_cnt_q[x*CntW +: CntW] <= c_cnt_d[x];
      end
    end
  end

  assign red_o = red_q;
  assign desc_o = desc_q;
  assign operands_o = operands_q;

  // A register with a batch pending (queued) or held by the emitter is a valid member
  // (software writes cancel batches, so the emitter never reads a freed register), and a
  // register never has a batch pending while the emitter holds its previous one.
  for (genvar k = 0; k < NumRegs; k++) begin : gen_batch_checks
    `ASSERT(BatchOfMember_A, !(pend_q[k] || emitting_i[k]) || (valid_i[k] && member_i[k]),
            ("register %0d has a batch but is no valid member", k))
    `ASSERT(OneBatch_A, !(pend_q[k] && emitting_i[k]),
            ("register %0d has a batch pending while its last is sent", k))
  end
  // An open message whose head delay still runs keeps the unit awake: its batch's due
  // cycle depends on it.
  logic counting;
  always_comb begin
    counting = 1'b0;
    for (int x = 0; x < NumCtx; x++) begin
      if (c_open_q[x] && (c_cnt[x] != '0)) counting = 1'b1;
    end
  end
  assign idle_o = !(|pend_q) && !counting;
  assign error_o = (|slot_error) || (|dup_error) || no_head_error || desc_error || frame_error || head_error;

  // Only the sync fields of the offered flits matter here.
  logic unused_flit;
  assign unused_flit = ^{flit_i, msg, vc_i};

  // Cover points (scripts/coverage): each cause of error_o here.
  `COVER(FlagSetError_C, |slot_error)
  `COVER(DuplicateError_C, |dup_error)
  `COVER(BodyWithoutHeadError_C, no_head_error)
  `COVER(DescriptorError_C, desc_error)
  `COVER(FrameError_C, frame_error)
  `COVER(HeadError_C, head_error)

`ifdef MESHSYNC_FORMAL_BARRIER_UNIT
  `include "barrier_unit.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

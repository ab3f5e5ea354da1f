// The barrier unit (contract step 5, router_core.cpp barrier_unit): it takes at most one
// sync message per cycle, round robin over the inputs that offer one, and never waits
// for the emitter:
//   - setup / teardown passing through: not taken; their CS transit entry is opened /
//     closed (cs_*_o, to the register file) and the input marks them done;
//   - setup / teardown at the end of their path: consumed without effect;
//   - arrive (reduction): set the flag of the sender's slot, count; when the children and
//     the local process have all arrived, clear, and the register has a batch to send
//     (its reduction message);
//   - release (distribution): the register has a batch to send (its releases);
//   - no member register for the message any more (freed since its arrival): not taken,
//     the input relabels it for the NI.
// A batch may leave from the cycle its message was ready (arrival + Trm - 1): the unit
// pushes each batch it creates into the emitter's FIFO (register and kind) and keeps, per
// register, a pending bit (created, not yet taken by the emitter) and a countdown to that
// cycle (batch_due_o: run out). Software writes to a register cancel its batch.
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
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1
) (
  input  logic                                       clk_i,
  input  logic                                       rst_ni,
  // Inputs offering a message to the unit, their head flits and remaining delays.
  input  logic [meshsync_pkg::NumPorts-1:0]          consume_i,
  input  logic [meshsync_pkg::NumPorts-1:0]          cs_i,
  input  logic [meshsync_pkg::NumPorts*FlitW-1:0]    flit_i,
  input  logic [meshsync_pkg::NumPorts*CntW-1:0]     cnt_i,
  // The message taken (its input pops) or relabelled for the NI.
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
  input  logic [NumRegs*meshsync_pkg::GidW-1:0]      gid_i,
  input  logic [NumRegs*NumChildrenW-1:0]            num_children_i,
  input  logic [NumRegs*meshsync_pkg::NumSlots-1:0]  flags_i,
  input  logic [NumRegs*ArrivedW-1:0]                arrived_i,
  // Reduction state after this cycle.
  output logic [NumRegs*meshsync_pkg::NumSlots-1:0]  flags_o,
  output logic [NumRegs*ArrivedW-1:0]                arrived_o,
  // The batch created this cycle, for the emitter's FIFO: register and kind (1: releases).
  output logic                                       batch_push_o,
  output logic [RegW-1:0]                            batch_push_reg_o,
  output logic                                       batch_push_release_o,
  // Per register: its batch's countdown has run out (it may leave from this cycle on).
  output logic [NumRegs-1:0]                         batch_due_o,
  // The emitter takes register k's batch this cycle / holds register k's batch.
  input  logic [NumRegs-1:0]                         batch_load_i,
  input  logic [NumRegs-1:0]                         emitting_i,
  // Software writes register k at the end of this cycle: its batch is cancelled.
  input  logic [NumRegs-1:0]                         written_i,
  // No batch pending (state at the start of the cycle).
  output logic                                       idle_o,
  // Protocol violation: an arrival on a flag already set in this epoch, a slot number the
  // contract does not define (5..14), a batch while the register's previous one waits.
  output logic                                       error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned NumSlots = meshsync_pkg::NumSlots;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  localparam int unsigned PortIdxW = $clog2(NumPorts);
  localparam int unsigned CountW = (ArrivedW > NumChildrenW) ? ArrivedW : NumChildrenW;

  // ---------------------------------------------------------------------------------------
  // One message: round robin over the offering inputs
  // ---------------------------------------------------------------------------------------
  logic [PortIdxW-1:0] sel;
  logic sel_valid;

  meshsync_output_arbiter #(
    .NumReq (NumPorts)
  ) u_pick (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (consume_i),
    .keep_i      (1'b1),
    .gnt_valid_o (sel_valid),
    .gnt_idx_o   (sel)
  );

  logic [FlitW-1:0] msg;
  logic [CntW-1:0] msg_cnt;
  logic [1:0] msg_type;
  logic [GidW-1:0] msg_gid;
  logic [DataW-1:0] msg_slot;
  logic is_arrive, is_release, control, cs;
  logic [NumRegs-1:0] hit;

  assign msg = flit_i[sel*FlitW +: FlitW];
  assign msg_cnt = cnt_i[sel*CntW +: CntW];
  assign msg_type = msg[meshsync_pkg::TypeLsb +: meshsync_pkg::TypeW];
  assign msg_gid = msg[meshsync_pkg::GidLsb +: GidW];
  assign msg_slot = msg[meshsync_pkg::DataLsb +: DataW];
  assign control = msg_type[1];
  assign cs = cs_i[sel];
  assign is_arrive = sel_valid && !cs && (msg_type == meshsync_pkg::SyncArrive);
  assign is_release = sel_valid && !cs && (msg_type == meshsync_pkg::SyncRelease);
  assign cs_valid_o = sel_valid && cs;
  assign cs_setup_o = msg_type == meshsync_pkg::SyncSetup;
  assign cs_gid_o = msg_gid;

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
      end else if (control || (|hit)) begin
        take_o[sel] = 1'b1;
      end else begin
        relabel_o[sel] = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Reduction state and batches
  // ---------------------------------------------------------------------------------------
  logic [NumRegs-1:0] pend_q, pend_d, create;
  logic [NumRegs*CntW-1:0] due_q, due_d;
  logic [NumRegs-1:0] slot_error, dup_error;
  // A batch may go in the cycle after it is created, and not before its message is ready.
  logic [CntW-1:0] due_new;
  assign due_new = (msg_cnt == '0) ? '0 : msg_cnt - 1'b1;

  for (genvar k = 0; k < NumRegs; k++) begin : gen_reg
    logic [NumSlots-1:0] flags;
    logic [ArrivedW-1:0] arrived;
    logic complete;

    always_comb begin
      flags = flags_i[k*NumSlots +: NumSlots];
      arrived = arrived_i[k*ArrivedW +: ArrivedW];
      slot_error[k] = 1'b0;
      complete = 1'b0;
      if (hit[k] && is_arrive) begin
        for (int s = 0; s < NumSlots; s++) begin
          if (msg_slot == DataW'(s)) begin
            slot_error[k] = flags[s];
            flags[s] = 1'b1;
          end
        end
        if ((msg_slot >= DataW'(NumSlots)) && (msg_slot != meshsync_pkg::SlotNone)) begin
          slot_error[k] = 1'b1;
        end
        if (CountW'(arrived) >= CountW'(num_children_i[k*NumChildrenW +: NumChildrenW])) begin
          // Children + local all here: clear for the next epoch.
          complete = 1'b1;
          flags = '0;
          arrived = '0;
        end else begin
          arrived = arrived + 1'b1;
        end
      end
    end

    assign flags_o[k*NumSlots +: NumSlots] = flags;
    assign arrived_o[k*ArrivedW +: ArrivedW] = arrived;
    assign create[k] = complete || (hit[k] && is_release);
    assign dup_error[k] = create[k] && (pend_q[k] || emitting_i[k]);

    always_comb begin
      pend_d[k] = pend_q[k] && !batch_load_i[k];
      due_d[k*CntW +: CntW] = (due_q[k*CntW +: CntW] == '0) ? '0 : due_q[k*CntW +: CntW] - 1'b1;
      if (create[k]) begin
        pend_d[k] = 1'b1;
        due_d[k*CntW +: CntW] = due_new;
      end
      if (written_i[k]) pend_d[k] = 1'b0;
    end

    assign batch_due_o[k] = due_q[k*CntW +: CntW] == '0;
  end

  // At most one batch a cycle (one message a cycle, one register per GID).
  assign batch_push_o = |create;
  assign batch_push_release_o = is_release;
  always_comb begin
    batch_push_reg_o = '0;
    for (int k = 0; k < NumRegs; k++) begin
      if (create[k]) batch_push_reg_o = RegW'(k);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pend_q <= '0;
      due_q <= '0;
    end else begin
      pend_q <= pend_d;
      due_q <= due_d;
    end
  end

`ifndef SYNTHESIS
  // Assertions: a register with a batch pending (queued) or held by the emitter is a valid
  // member (software writes cancel batches, so the emitter never reads a freed register),
  // and a register never has a batch pending while the emitter holds its previous one.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int k = 0; k < NumRegs; k++) begin
        BatchOfMember_A: assert (!(pend_q[k] || emitting_i[k]) || (valid_i[k] && member_i[k]))
          else $error("register %0d has a batch but is no valid member", k);
        OneBatch_A: assert (!(pend_q[k] && emitting_i[k]))
          else $error("register %0d has a batch pending while its last is sent", k);
      end
    end
  end
`endif
  assign idle_o = !(|pend_q);
  assign error_o = (|slot_error) || (|dup_error);

  // Only the sync fields of the offered flits matter here.
  logic unused_flit;
  assign unused_flit = ^{flit_i, msg};

endmodule

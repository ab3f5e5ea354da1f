// Unit proof of meshsync_barrier_unit (scripts/formal barrier_unit), included at module
// scope, so it sees the unit's batch state. Without lanes (ReduceWords = 0): a reduction
// message (a sync head with a vector behind it, or a body flit) is an error.
//
// Environment. The five inputs' offers (consume_i, cs_i, their flits, VCs and delays)
// are free: any sync message in any cycle. The register file is abstract: the registers'
// fields are free with its proven protocol (tb/formal/barrier_regfile.svh): GIDs unique
// among valid entries (UniqueGid_A), a member is valid (MemberIsValid_P); a member keeps
// its GID and child count, and a register becomes a member, only by a software write
// (written_i, the file's written_o, the cycle before); the count fits the arrival
// counter (the file refuses more than MaxChildren children); and the file stores the
// reduction state the unit leaves (flags_o, arrived_o), cleared by a write. The emitter
// is abstract: it holds at most one batch, takes one only when it holds none (batch_load_i
// one-hot, of a pending batch: its FIFO's live entries are the pending batches,
// barrier_emitter.svh's LiveIsQueued_P), and lets it go when it chooses (at once on a
// write to its register). The network never creates a batch for a register whose
// previous batch the emitter is still sending or takes in that cycle (the module's
// OneBatch_A; the protocol never does: the local release leaves last and the next epoch
// needs the local process); a batch while the previous one is still queued is left free
// (an error row).
//
// Properties, per register, against a count kept here from the messages taken: a
// reduction batch (the message to the parent, or to Local at the root) is created exactly
// when an arrival brings the epoch's arrivals to children + 1 (every child and the local
// process: slots are flagged once, CS children's slot 15 only counted), a release batch
// exactly when a release is taken, one per message, and nothing else creates one; the
// flags and the count the unit leaves are the epoch's arrivals; a batch is pending from
// its creation until the emitter takes it or software writes its register. And error_o
// is raised exactly on the contract's rows (docs/rtl.md `error_o`, docs/microarchitecture.md
// "Arrive", batches): an arrival on a flag already set, a slot 5..14, a batch while the
// register's previous one is pending, a reduction message (no lanes).
`include "proof_reset.svh"

// The message taken this cycle (not a setup/teardown passing through), read from the
// offered flit as the contract's format has it.
logic f_taken, f_head, f_tail, f_arr, f_rel;
logic [meshsync_pkg::DataW-1:0] f_slot;
assign f_taken = sel_valid && !cs_i[sel];
assign f_head = head;
assign f_tail = tail;
assign f_arr = f_taken && f_head && (msg_type == meshsync_pkg::SyncArrive);
assign f_rel = f_taken && f_head && (msg_type == meshsync_pkg::SyncRelease);
assign f_slot = msg_slot;

// The abstract emitter: holds register f_hold_reg's batch while f_hold.
logic f_hold = 1'b0;
logic [RegW-1:0] f_hold_reg = '0;
(* anyseq *) logic f_keep;
always_ff @(posedge clk_i) begin
  if (!rst_ni) begin
    f_hold <= 1'b0;
  end else if (batch_load_i != '0) begin
    f_hold <= f_keep && !written_i[index_of(batch_load_i)];
    f_hold_reg <= index_of(batch_load_i);
  end else begin
    f_hold <= f_hold && f_keep && !written_i[f_hold_reg];
  end
end
`ASSUME(LoadOne_M, (batch_load_i & (batch_load_i - 1'b1)) == '0)
`ASSUME(LoadWhenFree_M, (batch_load_i == '0) || !f_hold)
`ASSUME(LoadPending_M, (batch_load_i & ~pend_q) == '0)
for (genvar a = 0; a < NumRegs; a++) begin : gen_f_unique_a
  for (genvar b = a + 1; b < NumRegs; b++) begin : gen_f_unique_b
    `ASSUME(UniqueGid_M, !(valid_i[a] && valid_i[b] && gid_i[a*GidW +: GidW] == gid_i[b*GidW +: GidW]))
  end
end
`ASSUME(MemberIsValid_M, (member_i & ~valid_i) == '0)

// A spec event per register: an arrival / a release of this register taken, an error.
logic [NumRegs-1:0] f_arrive, f_release, f_complete, f_slot_err, f_dup_err, f_vec_err;
// The proof's own epoch: the slots flagged and the arrivals counted; the batch pending.
// (Flat vectors, register k's field at k*W: one always_ff per register writes its part.)
logic [NumRegs*NumSlots-1:0] f_seen_q = '0;
logic [NumRegs*ArrivedW-1:0] f_n_q = '0;
logic [NumRegs-1:0] f_pend = '0;

for (genvar k = 0; k < NumRegs; k++) begin : gen_f_reg
  logic f_member, f_hit;
  logic [GidW-1:0] f_gid;
  logic [NumChildrenW-1:0] f_nc;
  logic [NumSlots-1:0] f_seen;
  logic [ArrivedW-1:0] f_n;
  assign f_seen = f_seen_q[k*NumSlots +: NumSlots];
  assign f_n = f_n_q[k*ArrivedW +: ArrivedW];
  assign f_member = valid_i[k] && member_i[k];
  assign f_gid = gid_i[k*GidW +: GidW];
  assign f_nc = num_children_i[k*NumChildrenW +: NumChildrenW];
  assign f_hit = f_member && (f_gid == msg_gid);

  // The register file: stores the unit's reduction state, clears it on a write; keeps a
  // member's GID and child count until a write.
  logic [NumSlots-1:0] f_flags_q = '0;
  logic [ArrivedW-1:0] f_arrived_q = '0;
  logic f_member_q = 1'b0, f_written_q = 1'b0;
  logic [GidW-1:0] f_gid_q = '0;
  logic [NumChildrenW-1:0] f_nc_q = '0;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_flags_q <= '0;
      f_arrived_q <= '0;
      f_member_q <= 1'b0;
      f_written_q <= 1'b0;
    end else begin
      f_flags_q <= written_i[k] ? '0 : flags_o[k*NumSlots +: NumSlots];
      f_arrived_q <= written_i[k] ? '0 : arrived_o[k*ArrivedW +: ArrivedW];
      f_member_q <= f_member;
      f_written_q <= written_i[k];
    end
    f_gid_q <= f_gid;
    f_nc_q <= f_nc;
  end
  `ASSUME(FileStoresState_M, (flags_now[k] == f_flags_q) && (arrived_now[k] == f_arrived_q))
  `ASSUME(MemberKept_M, !(f_member_q && !f_written_q) || (f_member && f_gid == f_gid_q && f_nc == f_nc_q))
  `ASSUME(MemberByWrite_M, !(f_member && !f_member_q) || f_written_q)
  `ASSUME(ChildrenFit_M, CountW'(f_nc) <= CountW'({ArrivedW{1'b1}}))
  `ASSUME(EmitterHolds_M, emitting_i[k] == (f_hold && f_hold_reg == RegW'(k)))

  // The contract's rows for this register.
  assign f_arrive[k] = f_arr && f_tail && f_hit;
  assign f_release[k] = f_rel && f_tail && f_hit;
  assign f_complete[k] = f_arrive[k] && (CountW'(f_n) == CountW'(f_nc));
  assign f_slot_err[k] = f_arrive[k] && (((f_slot < DataW'(NumSlots)) && f_seen[f_slot]) ||
                                         ((f_slot >= DataW'(NumSlots)) && (f_slot != meshsync_pkg::SlotNone)));
  assign f_dup_err[k] = (f_complete[k] || f_release[k]) && f_pend[k];
  // A reduction message's head for this register (no lanes to take its vector).
  assign f_vec_err[k] = (f_arr || f_rel) && !f_tail && f_hit;
  `ASSUME(NoBatchWhileSent_M, !(f_complete[k] || f_release[k]) || !(emitting_i[k] || batch_load_i[k]))

  always_ff @(posedge clk_i) begin
    if (!rst_ni || written_i[k] || f_complete[k]) begin
      f_seen_q[k*NumSlots +: NumSlots] <= '0;
      f_n_q[k*ArrivedW +: ArrivedW] <= '0;
    end else if (f_arrive[k]) begin
      f_seen_q[k*NumSlots +: NumSlots] <= f_seen | ((f_slot < DataW'(NumSlots)) ? (NumSlots'(1) << f_slot) : '0);
      f_n_q[k*ArrivedW +: ArrivedW] <= f_n + 1'b1;
    end
    if (!rst_ni || written_i[k]) f_pend[k] <= 1'b0;
    else if (f_complete[k] || f_release[k]) f_pend[k] <= 1'b1;
    else if (batch_load_i[k]) f_pend[k] <= 1'b0;
  end

  // The batches: a reduction batch exactly at the epoch's last arrival, a release batch
  // exactly at a release; nothing else.
  `ASSERT(ReductionBatchWhenAllArrived_P,
          (batch_push_o && batch_push_reg_o == RegW'(k) && !batch_push_release_o) == f_complete[k],
          ("register %0d: a reduction batch not at its epoch's last arrival", k))
  `ASSERT(ReleaseBatchPerRelease_P,
          (batch_push_o && batch_push_reg_o == RegW'(k) && batch_push_release_o) == f_release[k],
          ("register %0d: a release batch not at a release", k))
  `ASSERT(PendingUntilTaken_P, pend_q[k] == f_pend[k], ("register %0d: pending bit wrong", k))
  // The state the unit leaves is the epoch's (the next one's, after the last arrival).
  `ASSERT(EpochState_P, written_i[k] ||
          (flags_o[k*NumSlots +: NumSlots] == (f_complete[k] ? '0 :
              (f_arrive[k] && f_slot < DataW'(NumSlots)) ? (f_seen | (NumSlots'(1) << f_slot)) : f_seen)) &&
          (arrived_o[k*ArrivedW +: ArrivedW] == (f_complete[k] ? '0 : f_arrive[k] ? f_n + 1'b1 : f_n)),
          ("register %0d: the flags or the count left are not the epoch's arrivals", k))
  `ASSERT(EpochStored_P, (f_flags_q == f_seen) && (f_arrived_q == f_n) && (CountW'(f_n) <= CountW'(f_nc)),
          ("register %0d: the stored epoch differs from the arrivals", k))

  // An epoch under way, a pending batch or one held by the emitter belongs to a member
  // not written since (helpers: they make the properties above inductive).
  `ASSERT(EpochOfMember_P, ((f_n == '0) && (f_seen == '0) && !f_pend[k] && !emitting_i[k]) ||
                           (f_member_q && !f_written_q && (CountW'(f_n) <= CountW'(f_nc_q))),
          ("register %0d: an epoch or a batch of no member", k))
  `COVER(Completed_C, f_complete[k] && f_nc != '0)
  `COVER(CompletedWithCsChild_C, f_complete[k] && f_slot == meshsync_pkg::SlotNone && f_nc != '0)
  `COVER(Released_C, f_release[k])
  `COVER(PendingTaken_C, batch_load_i[k] && f_n != '0)
end
// Without lanes no reduction message is ever open, and no epoch is a reduction.
`ASSERT(NoReductionState_P, (c_open_q == '0) && (kind_set_q == '0) && (red_q == '0) && (desc_set_q == '0),
        ("reduction state without lanes"))
`ASSERT(OneBatchACycle_P, !batch_push_o || (|(f_complete | f_release)), ("a batch without an event"))
// error_o: exactly the contract's rows.
logic f_error;
assign f_error = (|f_slot_err) || (|f_dup_err) || (|f_vec_err) || (f_taken && !f_head);
`ASSERT(ErrorOnContractRows_P, error_o == f_error, ("error_o is %0d, the contract says %0d", error_o, f_error))
`COVER(FlagTwice_C, |f_slot_err)
`COVER(BadSlot_C, (|f_slot_err) && f_slot == 4'd7)
`COVER(BatchOverBatch_C, |f_dup_err)
`COVER(ReductionRefused_C, |f_vec_err)

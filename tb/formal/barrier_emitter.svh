// Unit proof of meshsync_barrier_emitter (scripts/formal barrier_emitter), included at
// module scope, so it sees the batch and the slots. Without lanes (ReduceWords = 0): every
// message is one flit.
//
// Environment. The barrier unit's batches (push_*) come in any cycle, within its proven
// protocol (tb/formal/barrier_unit.svh): a register has one batch at most, pending or held
// (no batch for a register whose batch is queued, held or taken in that cycle: the unit's
// PendingUntilTaken_P and NoBatchWhileSent_M; a second one is the unit's error row). The
// registers' fields are free, but a register whose batch is queued or held keeps them
// unless software writes it (the register file changes a member only on a write), its
// children fit (at most MaxChildren) and are other routers than this one. The router's
// coordinates are fixed. Due flags, credits and VC owners are free; a port grants the
// emitter only what it offered (the switch allocator's proven EmitterOffered_P).
//
// Properties, per batch: a release batch sends each of its register's children exactly
// one release, addressed to that child (its coordinates and route, the group's GID), and
// then one local release, the last: granted only when every child's has left, and the
// batch ends with it; it ends no other way (but by a software write, which cancels it).
// A reduction batch sends exactly one arrival, to the parent (its slot there, its route)
// or, at the root, to Local (slot 4), and ends with it. Nothing is offered before the
// batch is due. error_o is raised exactly on the contract's row: a batch created while
// the FIFO is full and the emitter holds a batch.
`include "meshsync_assert.svh"
`include "proof_reset.svh"

localparam int unsigned FSlotW = SlotW;
(* anyconst *) logic [CoordXW-1:0] f_here_x;
(* anyconst *) logic [CoordYW-1:0] f_here_y;
`ASSUME(HereFixed_M, (here_x_i == f_here_x) && (here_y_i == f_here_y))
for (genvar o = 0; o < NumPorts; o++) begin : gen_f_grant
  `ASSUME(GrantOnOffer_M, !grant_i[o] || offer_o[o])
end

// The batches the proof knows queued (pushed live, not yet taken nor written).
logic [NumRegs-1:0] f_queued = '0, f_busy_q = '0;
logic f_accept;
assign f_accept = push_i && !(full && !pop);
`ASSUME(OneBatchPerRegister_M, !push_i || !(f_queued[push_reg_i] || emitting_o[push_reg_i] ||
                                            batch_load_o[push_reg_i]))

// The proof's FIFO occupancy, and per batch the children whose release has left and,
// per port, the child whose release its slot holds.
logic [CntW-1:0] f_occ = '0;
logic [MaxChildren-1:0] f_sent = '0;
logic [NumPorts*ChildW-1:0] f_slot_child = '0;
always_ff @(posedge clk_i) begin
  if (!rst_ni) begin
    f_occ <= '0;
    f_sent <= '0;
  end else begin
    f_occ <= f_occ + (f_accept ? 1'b1 : 1'b0) - (pop ? 1'b1 : 1'b0);
    if (load) f_sent <= '0;
    for (int o = 1; o < NumPorts; o++) begin
      if (offer_o[o] && grant_i[o] && rel_q) f_sent[f_slot_child[o*ChildW +: ChildW]] <= 1'b1;
    end
  end
  if (stage && child_left) f_slot_child[st_port*ChildW +: ChildW] <= ChildW'(sp_m);
end

for (genvar k = 0; k < NumRegs; k++) begin : gen_f_reg
  always_ff @(posedge clk_i) begin
    if (!rst_ni || written_i[k]) f_queued[k] <= 1'b0;
    else if (f_accept && push_reg_i == RegW'(k)) f_queued[k] <= 1'b1;
    else if (batch_load_o[k]) f_queued[k] <= 1'b0;
    f_busy_q[k] <= rst_ni && (f_queued[k] || emitting_o[k]) && !written_i[k];
  end
  // The register's fields, kept while its batch is queued or held.
  logic [GidW+1+CoordXW+CoordYW+1+DataW+NumChildrenW-1:0] f_fields, f_fields_q;
  logic [MaxChildren*(CoordXW+CoordYW+1)-1:0] f_children, f_children_q;
  assign f_fields = {gid_i[k*GidW +: GidW], parent_valid_i[k], parent_x_i[k*CoordXW +: CoordXW],
                     parent_y_i[k*CoordYW +: CoordYW], route_i[k], slot_i[k*DataW +: DataW],
                     num_children_i[k*NumChildrenW +: NumChildrenW]};
  assign f_children = {child_x_i[k*MaxChildren*CoordXW +: MaxChildren*CoordXW],
                       child_y_i[k*MaxChildren*CoordYW +: MaxChildren*CoordYW],
                       child_route_i[k*MaxChildren +: MaxChildren]};
  always_ff @(posedge clk_i) begin
    f_fields_q <= f_fields;
    f_children_q <= f_children;
  end
  `ASSUME(FieldsKept_M, !f_busy_q[k] || ((f_fields == f_fields_q) && (f_children == f_children_q)))
  `ASSUME(ChildrenFit_M, CmpW'(num_children_i[k*NumChildrenW +: NumChildrenW]) <= CmpW'(MaxChildren))
  for (genvar j = 0; j < MaxChildren; j++) begin : gen_f_child
    `ASSUME(ChildElsewhere_M, !(NumChildrenW'(j) < num_children_i[k*NumChildrenW +: NumChildrenW]) ||
                              (child_x_i[(k*MaxChildren + j)*CoordXW +: CoordXW] != here_x_i) ||
                              (child_y_i[(k*MaxChildren + j)*CoordYW +: CoordYW] != here_y_i))
  end
end

// The held batch's register.
logic [NumChildrenW-1:0] f_nc;
logic [GidW-1:0] f_gid;
logic f_pv, f_route;
logic [CoordXW-1:0] f_px;
logic [CoordYW-1:0] f_py;
logic [DataW-1:0] f_pslot;
logic [MaxChildren-1:0] f_all;  // its children
always_comb begin
  f_nc = num_children_i[idx_q*NumChildrenW +: NumChildrenW];
  f_gid = gid_i[idx_q*GidW +: GidW];
  f_pv = parent_valid_i[idx_q];
  f_route = route_i[idx_q];
  f_px = parent_x_i[idx_q*CoordXW +: CoordXW];
  f_py = parent_y_i[idx_q*CoordYW +: CoordYW];
  f_pslot = slot_i[idx_q*DataW +: DataW];
  for (int j = 0; j < MaxChildren; j++) f_all[j] = NumChildrenW'(j) < f_nc;
end

// Per slot, what it holds.
logic [NumPorts-1:0] f_granted;  // the slot's message leaves this cycle
for (genvar o = 0; o < NumPorts; o++) begin : gen_f_slot
  logic [CoordXW-1:0] f_sx;
  logic [CoordYW-1:0] f_sy;
  logic [GidW-1:0] f_sg;
  logic [DataW-1:0] f_sd;
  logic f_srel, f_syx, f_svec;
  assign {f_sx, f_sy, f_sg, f_sd, f_srel, f_syx, f_svec} = slot[o];
  assign f_granted[o] = offer_o[o] && grant_i[o];
  `ASSERT(SlotOfBatch_P, !slot_v_q[o] || (active_q && (f_srel == rel_q) && (f_sg == f_gid) && !f_svec &&
                                          (pos[o] == '0)),
          ("slot %0d holds a message of no batch", o))
  `ASSERT(OfferWhenDue_P, !offer_o[o] || (slot_v_q[o] && batch_due_i[idx_q]), ("slot %0d offered before due", o))
  // A reduction batch's one message: to the parent, or at the root to Local, slot 4.
  `ASSERT(ArrivalToParent_P, !(slot_v_q[o] && !rel_q) ||
          (f_pv ? ((f_sx == f_px) && (f_sy == f_py) && (f_syx == f_route) && (f_sd == f_pslot))
                : ((o == 0) && (f_sx == here_x_i) && (f_sy == here_y_i) && (f_sd == meshsync_pkg::SlotLocal))),
          ("slot %0d: the reduction message is not addressed to the parent", o))
  if (o == 0) begin : gen_local
    // The local release: the last of its batch, once every child's has left.
    `ASSERT(LocalSlotLast_P, !(slot_v_q[0] && rel_q) || (done_q && (CmpW'(sp_q) == CmpW'(f_nc)) &&
                                                          (f_sx == here_x_i) && (f_sy == here_y_i)),
            ("the local release is in its slot before every child's release is staged"))
    `ASSERT(LocalReleaseLast_P, !(f_granted[0] && rel_q) || (f_sent == f_all && !active_d),
            ("the local release left before a child's, or its batch goes on"))
    `COVER(LocalReleaseAfterChildren_C, f_granted[0] && rel_q && f_nc == NumChildrenW'(MaxChildren))
  end else begin : gen_link
    logic [ChildW-1:0] f_j;
    assign f_j = f_slot_child[o*ChildW +: ChildW];
    // A child's release: to that child (its address and route), staged, not yet sent.
    `ASSERT(ReleaseToChild_P, !(slot_v_q[o] && rel_q) ||
            ((CmpW'(f_j) < CmpW'(sp_q)) && f_all[f_j] && !f_sent[f_j] &&
             (f_sx == child_x_i[(idx_q*MaxChildren + f_j)*CoordXW +: CoordXW]) &&
             (f_sy == child_y_i[(idx_q*MaxChildren + f_j)*CoordYW +: CoordYW]) &&
             (f_syx == child_route_i[idx_q*MaxChildren + f_j])),
            ("slot %0d: a release not to a child still waiting for it", o))
    for (genvar p = o + 1; p < NumPorts; p++) begin : gen_f_other
      `ASSERT(OneSlotPerChild_P, !(slot_v_q[o] && slot_v_q[p] && rel_q) || (f_j != f_slot_child[p*ChildW +: ChildW]),
              ("slots %0d and %0d hold one child's release", o, p))
    end
    `COVER(ChildReleased_C, f_granted[o] && rel_q)
  end
end
// A release batch's staged children have left or wait in a slot; none is sent before it
// is staged.
for (genvar j = 0; j < MaxChildren; j++) begin : gen_f_child
  logic f_in_slot;
  always_comb begin
    f_in_slot = 1'b0;
    for (int o = 1; o < NumPorts; o++) begin
      if (slot_v_q[o] && f_slot_child[o*ChildW +: ChildW] == ChildW'(j)) f_in_slot = 1'b1;
    end
  end
  `ASSERT(StagedChildOut_P, !(active_q && rel_q) ||
          ((CmpW'(j) < CmpW'(sp_q)) ? (f_sent[j] || f_in_slot) : !f_sent[j]),
          ("child %0d: staged but neither sent nor in a slot, or sent unstaged", j))
end
`ASSERT(StagedChildren_P, !(active_q && rel_q) || (CmpW'(sp_q) <= CmpW'(f_nc)), ("more children staged than there are"))
`ASSERT(ReleaseDone_P, !(active_q && rel_q && done_q) || ((CmpW'(sp_q) == CmpW'(f_nc)) && slot_v_q[0]),
        ("release batch done early, or without its local release"))
`ASSERT(ReductionDone_P, !(active_q && !rel_q) || ((done_q == (slot_v_q != '0)) && ((slot_v_q & (slot_v_q - 1'b1)) == '0)),
        ("a reduction batch holds other than its one message"))
`ASSERT(NoSlotIdle_P, active_q || (slot_v_q == '0), ("a slot full without a batch"))
// A batch ends with its last message (the local release, the reduction message), or by a
// software write to its register.
`ASSERT(EndsWithLast_P, !(active_q && !active_d) || written_i[idx_q] || (rel_q ? f_granted[0] : (f_granted != '0)),
        ("a batch ended before its last message left"))
// Helpers: the FIFO's pointers agree with its occupancy; a live entry is a batch the
// proof knows queued; a held batch's register keeps its fields.
`ASSERT(FifoPointers_P, (CntW+1)'(tail_q) == (((CntW+1)'(head_q) + (CntW+1)'(count_q) >= (CntW+1)'(NumRegs)) ?
                         (CntW+1)'(head_q) + (CntW+1)'(count_q) - (CntW+1)'(NumRegs) : (CntW+1)'(head_q) + (CntW+1)'(count_q)),
        ("FIFO pointers"))
for (genvar i = 0; i < NumRegs; i++) begin : gen_f_entry
  logic [CntW:0] f_dist;  // entry i's place behind the head
  assign f_dist = (RegW'(i) >= head_q) ? (CntW+1)'(RegW'(i) - head_q) : (CntW+1)'(i + NumRegs) - (CntW+1)'(head_q);
  logic f_live;
  assign f_live = (f_dist < (CntW+1)'(count_q)) && fifo_live_q[i];
  `ASSERT(LiveIsQueued_P, !f_live || (f_queued[fifo_reg[i]] && !emitting_o[fifo_reg[i]]),
          ("FIFO entry %0d is live but no batch is queued, or its register's is held", i))
end
for (genvar i = 0; i < NumRegs; i++) begin : gen_f_pair_a
  for (genvar j = i + 1; j < NumRegs; j++) begin : gen_f_pair_b
    `ASSERT(OneLiveEntry_P, !(gen_f_entry[i].f_live && gen_f_entry[j].f_live) || (fifo_reg[i] != fifo_reg[j]),
            ("FIFO entries %0d and %0d hold one register's batch", i, j))
  end
end
`ASSERT(NoVector_P, !vec_q && !fold_q, ("a vector or a fold without lanes"))
`ASSERT(HeldKept_P, !active_q || f_busy_q[idx_q], ("the held batch's register may change"))
`ASSERT(Occupancy_P, (f_occ == count_q) && (count_q <= CntW'(NumRegs)), ("FIFO occupancy"))
// error_o: exactly the contract's row (no ALU without lanes).
`ASSERT(ErrorOnContractRow_P, error_o == (push_i && (f_occ == CntW'(NumRegs)) && !pop),
        ("error_o is not a batch into a full FIFO"))
`COVER(ArrivalToParentLeft_C, active_q && !rel_q && f_pv && (f_granted != '0))
`COVER(ArrivalAtRoot_C, active_q && !rel_q && !f_pv && f_granted[0])
`COVER(FifoOverflow_C, error_o)
`COVER(CancelledMidBatch_C, active_q && rel_q && written_i[idx_q] && (f_sent != '0))

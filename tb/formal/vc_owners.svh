// Unit proof of meshsync_vc_owners (scripts/formal vc_owners), included at module scope,
// so it sees the owner registers.
//
// Environment (the switch allocator's and the tree claim's side of the protocol): a flit
// leaves on a held VC only from its owner (the module's VcOwnerLeaves_A, which the
// switch allocator keeps: an input asks for a held VC only when it is its own, in_mine_o);
// a head takes a VC only when it is free; a tree head claims only a free tree VC
// (claim_ok_i includes the tree claim's room check). Everything else is free.
//
// Properties, per output VC (owner slot): one owner at a time, kept from the head that
// took the VC to the tail that frees it: a held VC changes hands or is freed only when
// its owner's tail leaves on it; a VC a head or a claim took is held by that input (or the
// emitter); the inputs' and the emitter's views say free / mine as the registers do.
`include "proof_reset.svh"

(* anyseq *) logic [NumOut-1:0] f_head;  // the leaving flit is a message's head
for (genvar o = 0; o < NumOut; o++) begin : gen_f_out
  for (genvar s = 0; s < NumOwners; s++) begin : gen_f_slot
    localparam int unsigned Slot = meshsync_pkg::owner_slot(o, s, NumOwners);
    logic on_slot;  // a flit leaves on this VC
    assign on_slot = leave_i[o] && (leave_vc[o] == VcW'(meshsync_pkg::owner_vc(s)));
    `ASSUME(LeaveByOwner_M, !(on_slot && valid_q[Slot]) || (leave_idx[o] == owner[Slot]))
    if (s == meshsync_pkg::OwnerTree) begin : gen_tree
      // A tree worm's flits leave on the tree VC its head claimed (in an earlier cycle).
      `ASSUME(ClaimFreeTreeVc_M, !claim_ok_i[o] || !valid_q[Slot])
      `ASSUME(TreeLeavesClaimed_M, !on_slot || (valid_q[Slot] && !claim_ok_i[o]))
    end else begin : gen_worm
      `ASSUME(HeadTakesFreeVc_M, !(on_slot && f_head[o]) || !valid_q[Slot])
      `ASSUME(BodyFollowsHead_M, !(on_slot && !f_head[o]) || valid_q[Slot])
      `ASSERT(HeadTakesVc_P, !(on_slot && f_head[o] && !leave_tail_i[o]) ||
                             (valid_d[Slot] && owner_next[Slot] == leave_idx[o]),
              ("a head left on output %0d without taking its VC", o))
    end
    `ASSERT(ReleasedByOwnersTail_P,
            !(valid_q[Slot] && !valid_d[Slot]) || (on_slot && leave_tail_i[o] && leave_idx[o] == owner[Slot]),
            ("output %0d VC slot %0d freed without its owner's tail", o, s))
    `ASSERT(OwnerKept_P, !(valid_q[Slot] && valid_d[Slot]) || (owner_next[Slot] == owner[Slot]),
            ("output %0d VC slot %0d changed hands while held", o, s))
    `COVER(HeldAcrossCycles_C, valid_q[Slot] && valid_d[Slot] && !on_slot)
  end
end
for (genvar o = 0; o < NumOut; o++) begin : gen_f_claim
  localparam int unsigned Slot = meshsync_pkg::owner_slot(o, meshsync_pkg::OwnerTree, NumOwners);
  `ASSERT(ClaimTakesTreeVc_P, !claim_ok_i[o] || (valid_d[Slot] && owner_next[Slot] == OwnW'(claim_idx_i)),
          ("a claim of output %0d did not take its tree VC", o))
  `ASSERT(TreeFreeView_P, tree_free_o[o] == !valid_q[Slot], ("output %0d's tree VC view is wrong", o))
end
for (genvar p = 0; p < NumPorts; p++) begin : gen_f_em
  for (genvar y = 0; y < 2; y++) begin : gen_f_sync
    localparam int unsigned Slot = meshsync_pkg::owner_slot(p, meshsync_pkg::sync_owner(y != 0), NumOwners);
    `ASSERT(EmitterView_P, (em_free_o[p*2 + y] == !valid_q[Slot]) &&
                           (em_mine_o[p*2 + y] == (valid_q[Slot] && owner[Slot] == OwnW'(NumIn))),
            ("port %0d sync VC %0d: the emitter's view disagrees with the owner", p, y + 1))
  end
end

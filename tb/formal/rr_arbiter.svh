// Unit proof of meshsync_rr_arbiter (scripts/formal rr_arbiter), included at module scope,
// so it sees the round-robin pointer. The requests and keep_i are free: any requester may
// ask or stop in any cycle, and any grant may be kept or not.
//
// Properties: a grant goes to a requester and only when there is one (the module's own
// GrantToRequester_A); the grant is one index, in range (one-hot by construction); the
// pointer stays in range; and round-robin fairness: a requester that keeps requesting has
// its grant kept before NumReq - 1 grants to others have been kept (the bound is reached: a
// cover shows a requester waiting through exactly NumReq - 1 of them).
`include "proof_reset.svh"

// The requester watched (any one the solver picks, fixed for the run) and the kept grants
// to others since it began to ask or was last served.
(* anyconst *) logic [IdxW-1:0] f_req;
logic [IdxW:0] f_waited_q;
logic [IdxW:0] f_dist;  // the pointer's distance to f_req, scanning upwards and wrapping
assign f_dist = (f_req >= rr_q) ? {1'b0, f_req} - {1'b0, rr_q}
                                : {1'b0, f_req} + (IdxW + 1)'(NumReq) - {1'b0, rr_q};
always_ff @(posedge clk_i) begin
  if (!rst_ni || !req_i[f_req] || (gnt_valid_o && keep_i && gnt_idx_o == f_req)) f_waited_q <= '0;
  else if (gnt_valid_o && keep_i) f_waited_q <= f_waited_q + 1'b1;
end

`ASSUME(WatchedInRange_M, f_req < NumReq)

`ASSERT(GrantInRange_P, !gnt_valid_o || (gnt_idx_o < NumReq), ("grant to index %0d of %0d", gnt_idx_o, NumReq))
`ASSERT(PointerInRange_P, rr_q < NumReq, ("pointer %0d of %0d", rr_q, NumReq))
`ASSERT(Fair_P, f_waited_q < (IdxW + 1)'(NumReq), ("requester %0d waited %0d kept grants", f_req, f_waited_q))
// Why Fair_P holds (the inductive invariant): each kept grant to another requester moves
// the pointer past that one and nearer the watched requester.
`ASSERT(FairByDistance_P, !req_i[f_req] || (f_waited_q + f_dist <= (IdxW + 1)'(NumReq - 1)),
        ("waited %0d, distance %0d", f_waited_q, f_dist))

`COVER(WaitedLongest_C, req_i[f_req] && (f_waited_q == (IdxW + 1)'(NumReq - 1)))
`COVER(AllRequest_C, &req_i)

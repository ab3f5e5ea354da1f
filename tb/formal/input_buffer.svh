// Unit proof of meshsync_input_buffer (scripts/formal input_buffer), included at module
// scope, so it sees the pointers, the occupancy and the entries.
//
// Environment: the upstream writes only with room (a credit: meshsync_credit_counters'
// CreditConservation_P), and the input pops only a VC that holds a flit (its arbiter picks
// eligible VCs: the buffer's own NoPopFromEmpty_A, assumed here as the neighbour's duty).
//
// Properties: the occupancy is what was written and not yet popped (a count kept here,
// outside the design), full_o and empty_o agree with it, the pointers stay in range and
// are as far apart as the occupancy says; no write is lost to an overflow; and a tracked
// flit (any one write the solver picks, of any value) leaves as the head after exactly
// the flits that were in the buffer before it: flits leave in arrival order, none is
// lost, none is duplicated.
`include "proof_reset.svh"

`ASSUME(WriteWithRoom_M, !push_i || !full_o || pop_i)
`ASSUME(PopWithHead_M, !pop_i || !empty_o)

// The occupancy by the buffer's ports alone.
logic [CountW-1:0] f_count_q;
always_ff @(posedge clk_i) begin
  if (!rst_ni) f_count_q <= '0;
  else f_count_q <= f_count_q + CountW'(write) - CountW'(pop_i);
end

`ASSERT(OccupancyByPorts_P, count_q == f_count_q, ("occupancy %0d, written less popped %0d", count_q, f_count_q))
`ASSERT(FullEmpty_P, (full_o == (f_count_q == DepthCount)) && (empty_o == (f_count_q == '0)),
        ("full/empty disagree with the occupancy"))
`ASSERT(NoOverflow_P, !overflow_o && (f_count_q <= DepthCount), ("the buffer overflowed"))
`ASSERT(PointersInRange_P, (rd_ptr_q <= LastPtr) && (wr_ptr_q <= LastPtr), ("a pointer left the buffer"))
`ASSERT(PointersApart_P,
        ({1'b0, wr_ptr_q} + ((wr_ptr_q < rd_ptr_q) ? (PtrW + 1)'(Depth) : '0) - {1'b0, rd_ptr_q}) ==
        (PtrW + 1)'((count_q == DepthCount) ? 0 : count_q),
        ("pointers %0d, %0d apart from occupancy %0d", rd_ptr_q, wr_ptr_q, count_q))

// The tracked flit: written when the solver says (f_pick) and nothing is tracked yet;
// f_ahead counts the flits before it, and its entry holds its value until it leaves.
(* anyseq *) logic f_pick;
logic f_tracking_q, f_take;
logic [FlitW-1:0] f_flit_q;
logic [CountW-1:0] f_ahead_q;
logic [PtrW:0] f_past, f_slot;  // its entry: rd_ptr + ahead, wrapped
assign f_take = write && f_pick && !f_tracking_q;
assign f_past = {1'b0, rd_ptr_q} + {1'b0, f_ahead_q[PtrW-1:0]};
assign f_slot = (f_past >= (PtrW + 1)'(Depth)) ? f_past - (PtrW + 1)'(Depth) : f_past;
always_ff @(posedge clk_i) begin
  if (!rst_ni) begin
    f_tracking_q <= 1'b0;
    f_ahead_q <= '0;
    f_flit_q <= '0;
  end else if (f_take) begin
    f_tracking_q <= 1'b1;
    f_flit_q <= push_flit_i;
    f_ahead_q <= count_q - CountW'(pop_i);  // those before it, less the one leaving now
  end else if (f_tracking_q && pop_i) begin
    if (f_ahead_q == '0) f_tracking_q <= 1'b0;  // it leaves
    else f_ahead_q <= f_ahead_q - 1'b1;
  end
end

`ASSERT(TrackedInBuffer_P, !f_tracking_q || (f_ahead_q < count_q), ("the tracked flit was lost"))
`ASSERT(TrackedEntryHeld_P, !f_tracking_q || (flit_q[f_slot[PtrW-1:0]] == f_flit_q),
        ("the tracked flit's entry was overwritten"))
`ASSERT(InOrder_P, !(f_tracking_q && (f_ahead_q == '0)) || (head_flit_o == f_flit_q),
        ("the tracked flit is not the head when the flits before it have left"))

`COVER(Full_C, full_o)
`COVER(TrackedLeavesLast_C, f_tracking_q && pop_i && (f_ahead_q == '0) && (f_count_q == DepthCount))
`COVER(WriteAndPopWhenFull_C, full_o && push_i && pop_i)

// Unit proof of meshsync_input_port's tree VC (scripts/formal input_port), included at
// module scope, so it sees the VCs' head flags and its arbiter's choice.
//
// Environment. Upstream: any flit on any VC in any cycle, written only with room (the
// credit protocol: meshsync_credit_counters' CreditConservation_P), and on the tree VC
// whole worms one after the other (a tree head, then non-heads up to a tail: one worm
// owns the upstream tree VC from its head to its tail, tb/formal/vc_owners.svh). The
// tree VC's buffer keeps order (tb/formal/input_buffer.svh, proven at this depth): its
// front's head and tail flags are those of the oldest flit written and not popped, kept
// here as a shadow of the flags. The tree claim is abstract, as tb/formal/tree_claim.svh
// proves it: it may claim in any cycle the input shows a tree head at the front and holds
// no claim, any outputs (none: the worm is dropped); the claim and its outputs stay until
// the tree VC's tail leaves, and tree_links_i / tree_drop_i are derived from them as
// meshsync_router does. The switch allocator grants only a request, the barrier unit
// relabels only a consume request and marks only a CS one. Everything else is free.
//
// Properties: a tree flit leaves its buffer only while its input holds a claim (the tree
// claim's TailGoneClaimed_M), as a tree request, dropped exactly when its worm claimed
// nothing; the flits that leave under one claim are exactly one worm: the first is the
// head that claimed (it was at the front when it claimed), no other head leaves before
// the claim ends, and it ends with that worm's tail. With the tree claim's ClaimKept_P
// (every cycle of a claim shows the outputs the head claimed) and the switch allocator's
// FlitConservedTree_A (a served tree flit leaves on exactly its worm's claimed outputs):
// a tree worm is forwarded on exactly the outputs it claimed, or dropped whole.
`include "meshsync_assert.svh"
`include "proof_reset.svh"

localparam int unsigned FTreeDepth = TreeBufferDepth;
localparam int unsigned FPtrW = (FTreeDepth > 1) ? $clog2(FTreeDepth) : 1;
localparam int unsigned FCntW = $clog2(FTreeDepth + 1);

(* anyconst *) logic [meshsync_pkg::CoordW-1:0] f_here_x, f_here_y;
`ASSUME(HereFixed_M, (here_x_i == f_here_x) && (here_y_i == f_here_y))
for (genvar v = 0; v < NumVcs; v++) begin : gen_f_vc
  `ASSUME(WriteWithRoom_M, !(in_valid_i && in_vc_i == VcW'(v)) || !full_o[v])
end
`ASSUME(GrantRequest_M, !gnt_i || req_valid_o)
`ASSUME(RelabelConsume_M, !relabel_i || (req_valid_o && req_consume_o && !req_cs_o && !gnt_i))
`ASSUME(CsDoneMarked_M, !cs_done_i || (req_cs_o && !gnt_i))

// Upstream: tree worms whole, one after the other.
logic f_tree_push, f_up_open = 1'b0;
assign f_tree_push = in_valid_i && (in_vc_i == meshsync_pkg::VcTree);
always_ff @(posedge clk_i) begin
  if (!rst_ni) f_up_open <= 1'b0;
  else if (f_tree_push) f_up_open <= !in_flit_i.tail;
end
`ASSUME(WholeTreeWorms_M, !f_tree_push || (f_up_open ? !in_flit_i.head : in_tree_head))

// The shadow of the tree buffer's head and tail flags, in order.
logic [FTreeDepth-1:0] f_h = '0, f_t = '0;
logic [FPtrW-1:0] f_rd = '0;
logic [FCntW-1:0] f_cnt = '0;
logic [FPtrW:0] f_wr_sum;
logic [FPtrW-1:0] f_wr;
assign f_wr_sum = (FPtrW+1)'(f_rd) + (FPtrW+1)'(f_cnt);
assign f_wr = FPtrW'((f_wr_sum >= (FPtrW+1)'(FTreeDepth)) ? f_wr_sum - (FPtrW+1)'(FTreeDepth) : f_wr_sum);
always_ff @(posedge clk_i) begin
  if (!rst_ni) begin
    f_rd <= '0;
    f_cnt <= '0;
  end else begin
    if (f_tree_push) begin
      f_h[f_wr] <= in_flit_i.head;
      f_t[f_wr] <= in_flit_i.tail;
    end
    if (pop_o[4]) f_rd <= (f_rd == FPtrW'(FTreeDepth - 1)) ? '0 : f_rd + 1'b1;
    f_cnt <= f_cnt + FCntW'(f_tree_push) - FCntW'(pop_o[4]);
  end
end
`ASSUME(BufferInOrder_M, (empty[4] == (f_cnt == '0)) && (full_o[4] == (f_cnt == FCntW'(FTreeDepth))) &&
                         ((f_cnt == '0) || ((head_is_head[4] == f_h[f_rd]) && (head_is_tail[4] == f_t[f_rd]))))

// The abstract tree claim: claims a head at the front when the input holds no claim, any
// outputs; keeps them until the tail leaves.
(* anyseq *) logic f_claim;
(* anyseq *) logic [NumPorts-1:0] f_new_outs;
logic f_claimed = 1'b0, f_first = 1'b0;
logic [NumPorts-1:0] f_outs_q = '0, f_outs;
logic f_tail_gone;
`ASSUME(ClaimAHead_M, !f_claim || (tree_head_o && !f_claimed))
assign f_outs = f_claim ? f_new_outs : f_outs_q;
assign f_tail_gone = pop_o[4] && head_is_tail[4];
`ASSUME(ClaimView_M, (tree_claimed_i == (f_claimed || f_claim)) && (tree_links_i == {f_outs[NumPorts-1:1], 1'b0}) &&
                     (tree_drop_i == (f_outs == '0)))
always_ff @(posedge clk_i) begin
  if (!rst_ni) begin
    f_claimed <= 1'b0;
    f_first <= 1'b0;
  end else begin
    f_claimed <= tree_claimed_i && !f_tail_gone;
    // No flit of the claim has left yet.
    f_first <= f_claim ? !pop_o[4] : (f_first && !pop_o[4]);
  end
  f_outs_q <= f_outs;
end

// The properties.
`ASSERT(TreePopClaimed_P, !pop_o[4] || tree_claimed_i, ("a tree flit left without a claim"))
`ASSERT(TreeRequest_P, !pop_o[4] || (req_tree_o && (req_drop_o == (f_outs == '0))),
        ("a tree flit left not as a tree request, or dropped against its claim"))
`ASSERT(DropOnlyTree_P, !req_drop_o || (req_tree_o && tree_drop_i), ("a flit dropped that is no dropped tree flit"))
`ASSERT(OneWormPerClaim_P, !pop_o[4] || (head_is_head[4] == (f_claim || f_first)),
        ("a tree claim's flits are not one worm from its head"))
`ASSERT(HeadAtFront_P, !tree_head_o || (!empty[4] && head_is_head[4]), ("a tree head offered that is none"))

// Helpers: the popped side is inside a worm exactly while a claim has let its head go;
// the shadow holds whole worms behind it, up to the upstream's open one.
logic f_out_open;
assign f_out_open = f_claimed && !f_first;
`ASSERT(FirstOnlyClaimed_P, !f_first || f_claimed, ("a first flit awaited without a claim"))
`ASSERT(ClaimedHeadWaits_P, !(f_claimed && f_first) || (f_cnt != '0 && f_h[f_rd]),
        ("a claim whose head is not at the front"))
// Per entry of the shadow (constant indices: a scan from the front is slow in the
// solver at depth 66): held, and its place behind the front.
logic [FTreeDepth-1:0] f_held;
logic f_last_tail;  // the newest flit's tail flag
for (genvar e = 0; e < FTreeDepth; e++) begin : gen_f_entry
  localparam int unsigned Next = (e + 1) % FTreeDepth;
  logic [FCntW-1:0] f_place;
  assign f_place = FCntW'((FPtrW'(e) >= f_rd) ? (FCntW+1)'(e) - (FCntW+1)'(f_rd)
                                              : (FCntW+1)'(e + FTreeDepth) - (FCntW+1)'(f_rd));
  assign f_held[e] = f_place < f_cnt;
  // A flit followed by another in the buffer: the next heads a worm exactly after a tail.
  `ASSERT(ShadowWormsInOrder_P, !(f_held[e] && (f_place + 1'b1 < f_cnt)) || (f_h[Next] == f_t[e]),
          ("tree buffer entries %0d, %0d: not whole worms", e, Next))
end
assign f_last_tail = f_t[(f_wr == '0) ? FPtrW'(FTreeDepth - 1) : f_wr - 1'b1];
`ASSERT(ShadowEnds_P, (f_cnt <= FCntW'(FTreeDepth)) && (FCntW'(f_rd) < FCntW'(FTreeDepth)) &&
                      ((f_cnt == '0) ? (f_out_open == f_up_open)
                                     : ((f_h[f_rd] == !f_out_open) && (f_last_tail == !f_up_open))),
        ("the tree buffer does not hold whole worms behind the one leaving"))

`COVER(WormForwarded_C, pop_o[4] && head_is_tail[4] && !f_first && !f_claim && (f_outs != '0))
`COVER(WormDropped_C, pop_o[4] && head_is_tail[4] && !f_first && !f_claim && (f_outs == '0))
`COVER(HeadLeavesAtClaim_C, pop_o[4] && f_claim && !head_is_tail[4])
// A worm's tail leaves with the next worm's head behind it, which waits for a claim of its own.
`COVER(NextWormWaits_C, f_tail_gone && !f_first && !f_claim && (f_cnt >= FCntW'(2)))

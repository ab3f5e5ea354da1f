// Unit proof of meshsync_tree_claim (scripts/formal tree_claim), included at module scope,
// so it sees each input's claim registers.
//
// Environment (the input ports' and the output units' side): any input may have a tree
// head at the front in any cycle, with any flit and any routed port of the five; the
// registers are free with GIDs unique among valid entries (barrier_regfile's
// UniqueGid_A); room is free (the output units' tree VC free and buffer empty); the
// router's coordinates are fixed. An input's tree worm leaves only once claimed: its tail
// goes (tail_gone_i) only in a cycle it is claimed (meshsync_input_port's tree VC is
// eligible only when tree_claimed_i: TreePopClaimed_P of tb/formal/input_port.svh).
//
// Properties, per input, against what the proof saw at the claim: a worm claims once, in
// the cycle its head is picked; from then until its tail leaves, every cycle shows the
// same claim (the outputs, the links readdressed to children and their children), so
// every flit of the worm asks for exactly the outputs the head claimed, and a worm that
// got no output is dropped whole (outs_o = 0 from its head to its tail, and only then);
// the tail ends the claim and leaves nothing behind. A claim takes only outputs with
// room, the routed port in transit and the NI output here when it has room; the claimant
// is an input with an unclaimed head.
`include "meshsync_assert.svh"
`include "proof_reset.svh"

(* anyconst *) logic [CoordW-1:0] f_here_x, f_here_y;
`ASSUME(HereFixed_M, (here_x_i == f_here_x) && (here_y_i == f_here_y))
for (genvar a = 0; a < NumRegs; a++) begin : gen_f_unique_a
  for (genvar b = a + 1; b < NumRegs; b++) begin : gen_f_unique_b
    `ASSUME(UniqueGid_M, !(reg_valid_i[a] && reg_valid_i[b] &&
                           reg_gid_i[a*meshsync_pkg::GidW +: meshsync_pkg::GidW] ==
                           reg_gid_i[b*meshsync_pkg::GidW +: meshsync_pkg::GidW]))
  end
end

`ASSERT(ClaimWithRoom_P, (claim_ok_o & ~room_i) == '0, ("a claim took an output without room"))
`ASSERT(ClaimantAsked_P, !claim_valid || (head_i[claim_idx] && !claimed_q[claim_idx]),
        ("the claimant %0d has no unclaimed head", claim_idx))
// In transit the routed port, with room; addressed here the NI output whenever it has room.
`ASSERT(ClaimInTransit_P, !claim_valid || (out == meshsync_pkg::PortLocal) ||
        (claim_ok_o == (room_i & (NumOut'(1) << out))),
        ("a worm in transit claimed other than its routed port"))
`ASSERT(ClaimNiHere_P, !claim_valid || (out != meshsync_pkg::PortLocal) || (claim_ok_o[eject] == room_i[eject]),
        ("a worm addressed here did not claim its NI output"))

for (genvar i = 0; i < NumIn; i++) begin : gen_f_in
  `ASSUME(RoutedPort_M, head_out[i] < PortW'(NumPorts))
  `ASSUME(TailGoneClaimed_M, !tail_gone_i[i] || claimed_o[i])

  // What the worm claimed, seen at its claim.
  logic [NumOut-1:0] f_outs = '0;
  logic [NumPorts-1:0] f_child = '0, f_route = '0;
  logic [NumPorts*CoordW-1:0] f_cx = '0, f_cy = '0;
  logic f_claimant;
  assign f_claimant = gen_worm[i].claimant;
  always_ff @(posedge clk_i) begin
    if (f_claimant) begin
      f_outs <= claim_ok_o;
      f_child <= child;
      f_route <= pr;
      for (int p = 0; p < NumPorts; p++) begin
        f_cx[p*CoordW +: CoordW] <= px[p];
        f_cy[p*CoordW +: CoordW] <= py[p];
      end
    end
  end
  logic [NumOut-1:0] f_outs_now;
  assign f_outs_now = outs_o[i*NumOut +: NumOut];

  `ASSERT(OneClaimPerWorm_P, !(f_claimant && claimed_q[i]), ("input %0d claimed again mid-worm", i))
  `ASSERT(ClaimHeld_P, !(claimed_q[i] && !tail_gone_i[i]) || claimed_d[i],
          ("input %0d lost its claim before its tail left", i))
  `ASSERT(ClaimKept_P, !claimed_q[i] ||
          ((f_outs_now == f_outs) && (child_o[i*NumPorts +: NumPorts] == f_child) &&
           (child_route_o[i*NumPorts +: NumPorts] == f_route)),
          ("input %0d's worm does not ask for the outputs its head claimed", i))
  for (genvar p = 1; p < NumPorts; p++) begin : gen_f_child
    `ASSERT(ChildKept_P, !(claimed_q[i] && f_child[p]) ||
            ((child_x_o[(i*NumPorts + p)*CoordW +: CoordW] == f_cx[p*CoordW +: CoordW]) &&
             (child_y_o[(i*NumPorts + p)*CoordW +: CoordW] == f_cy[p*CoordW +: CoordW])),
            ("input %0d: the child readdressed on port %0d changed mid-worm", i, p))
  end
  `ASSERT(ClaimEndsAtTail_P, !tail_gone_i[i] || (!claimed_d[i] && (outs_d[i*NumOut +: NumOut] == '0)),
          ("input %0d's claim outlives its tail", i))
  `ASSERT(TailEndsClaim_P, claimed_q[i] ||
          ((outs_q[i*NumOut +: NumOut] == '0) && (child_q[i*NumPorts +: NumPorts] == '0)),
          ("input %0d keeps a claim without a worm", i))

  // (The covers on one input: the others are alike.)
  if (i == 1) begin : gen_f_cover
  `COVER(WormKeepsClaim_C, claimed_q[i] && !tail_gone_i[i] && ((f_outs & (f_outs - 1'b1)) != '0))
  `COVER(DroppedWhole_C, claimed_q[i] && tail_gone_i[i] && (f_outs == '0))
  `COVER(OneFlitWorm_C, f_claimant && tail_gone_i[i] && (claim_ok_o != '0))
  end
end
`COVER(ChildOnLink_C, claim_valid && (out == meshsync_pkg::PortLocal) && (|(claim_ok_o[NumPorts-1:1] & child)))

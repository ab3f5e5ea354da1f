// Bounded model check of the whole router (scripts/formal router; issue 38, item 3),
// included at the end of meshsync_router's module scope (Yosys 0.23 has no hierarchical
// references: the check sees the router's own wires, not its units' registers). BMC only,
// from reset, to the depth of its rows in tb/formal/proofs.txt: every design assertion of
// every unit is checked here with the real neighbours in place of the unit proofs'
// assumptions (NoPopFromEmpty_A, VcOwnerLeaves_A, OnePopPerGrant_A among them), together
// with the properties below.
//
// Environment, the link protocol at every port (docs/microarchitecture.md, "One cycle"):
//   - Upstream of each link input p and VC v an abstract credit counter, starting at the
//     VC's depth: a flit arrives on (p, v) only with a credit; a credit comes back for
//     every pop the router reports on credit_out_o. The counter takes it back the next
//     cycle, the earliest any Tp allows, so every link delay is a subset of these traces.
//   - Injection inputs (Local, all-port channels 1-3): a flit only where local_ready_o
//     says it fits (the NI's rule).
//   - Worms well formed per input and VC: a head exactly when no worm is open on that VC,
//     flits up to its tail after it, no other worm's flit in between (the upstream's VC
//     owner); heads addressed inside the mesh (dest_x < MeshW, dest_y < MeshH) and a
//     forced first hop that names a port; no sync message on an injection channel 1-3.
//   - What the input ports themselves check of a flit (in_error: the VC its kind travels
//     on, the address flit behind an absorbed head; an overflow the credits above already
//     exclude) and what the barrier hardware flags (barrier_error: two arrivals from one
//     child, a batch into a full FIFO, ...) do not happen: those are the neighbours'
//     protocol violations, which the router only reports.
//   - Downstream of each link output o and VC v an abstract buffer: it returns a credit
//     (credit_in_i) only for a flit it holds, whenever it chooses.
//   - The software port is free (any program or free in any cycle).
//
// Properties:
//   - Room: no input VC holds more flits than its depth, none pops empty (counted here at
//     the ports: arrivals less pops), and no output VC has more flits downstream than the
//     downstream buffer's depth (the router sends only with room there).
//   - Flit conservation, one symbolic flit: any one arrival the solver picks (any input,
//     VC and value) leaves its input as the pop after the flits that were there before
//     it, unchanged, and then leaves exactly once: on the outputs granted to its input in
//     that cycle (one, or a link and the NI output if absorbed and forwarded, or every
//     output its tree worm claimed, as the switch allocator's FlitConserved*_A count),
//     with its bits (the forwarded head's head bit, a tree head's copy readdressed to a
//     child excepted) on its VC; or taken by the barrier unit; or dropped with its tree
//     worm. No output carries a flit that was not popped there, or the emitter's.
//   - A lone worm's bounded liveness: when the solver chooses a lone-worm run (f_lone),
//     only input f_in, worm VC f_vc (0 or 3) receives flits, software stays silent and
//     the downstream buffers return every credit at once; then a VC holding flits waits at
//     most Trn - 1 cycles without a pop (a flit leaves Trn - 1 cycles after its arrival,
//     the zero-load timing), so an L-flit worm has left Trn - 1 cycles after its tail came.
`include "meshsync_assert.svh"
`include "proof_reset.svh"
// One reset, at the start: a reset later on empties the router and every count here alike,
// and would only double the traces the solver walks.
always @* if (f_started) assume (rst_ni);

localparam int unsigned FCntW = 8;  // every count here (depths up to 66)
localparam int unsigned FInW = (NumIn > 1) ? $clog2(NumIn) : 1;

// The input VCs' depths, as the input ports are built (0: the VC is absent); also the
// credits each output VC starts with.
localparam logic [FCntW-1:0] FDepth0 = FCntW'(WormDepth);
localparam logic [FCntW-1:0] FDepthSync = FCntW'(SyncDepth);
localparam logic [FCntW-1:0] FDepth3 = FCntW'((PathWorms != 0) ? WormDepth : 0);
localparam logic [FCntW-1:0] FDepth4 = FCntW'((TreeBufferDepth != 0) ? TreeDepth : 0);

// The symbolic choices: the tracked flit's input and VC, and whether this run is a lone
// worm's (then on that input and VC).
(* anyconst *) logic [FInW-1:0] f_in;
(* anyconst *) logic [VcW-1:0] f_vc;
(* anyconst *) logic f_lone;
(* anyseq *) logic f_pick;
`ASSUME(TrackedInRange_M, (f_in < FInW'(NumIn)) && (f_vc < VcW'(NumVcs)))
`ASSUME(LoneOnWormVc_M, !f_lone || (f_vc == meshsync_pkg::VcWorm) || (f_vc == meshsync_pkg::VcSnake))
`ASSUME(LoneSoftwareSilent_M, !f_lone || (reg_op_i == meshsync_pkg::RegOpNone))

`ASSUME(WellFormedFlits_M, in_error == '0)
`ASSUME(BarrierProtocol_M, !barrier_error)

// ---------------------------------------------------------------------------------------
// Inputs: arrivals, occupancy, upstream credits, worm structure
// ---------------------------------------------------------------------------------------
logic [NumIn*NumVcs-1:0] f_arrive;
logic [NumIn*NumVcs*FCntW-1:0] f_occ;  // per input VC: flits held (arrived, not popped)
for (genvar i = 0; i < NumIn; i++) begin : gen_f_input
  // Flit fields by position (Yosys 0.23 cannot size a struct declared in a generate block).
  logic [FlitW-1:0] f_fl;
  logic f_head, f_tail, f_sync;
  assign f_fl = in_flit[i];
  assign f_head = f_fl[FlitW-1];
  assign f_tail = f_fl[FlitW-2];
  assign f_sync = f_fl[FlitW-3];
  logic [VcW-1:0] f_ivc;
  assign f_ivc = in_vc_i[i*VcW +: VcW];
  `ASSUME(VcExists_M, !in_valid_i[i] || (f_ivc < VcW'(NumVcs)))
  `ASSUME(HeadInMesh_M, !(in_valid_i[i] && f_head) ||
                        ((f_fl[meshsync_pkg::DestXLsb +: CoordW] < CoordW'(MeshW)) &&
                         (f_fl[meshsync_pkg::DestYLsb +: CoordW] < CoordW'(MeshH))))
  `ASSUME(FirstHopIsPort_M, !(in_valid_i[i] && f_head && !f_sync) ||
                            (f_fl[meshsync_pkg::FirstLsb +: meshsync_pkg::FirstW] < PortW'(NumPorts)))
  if (i >= NumPorts) begin : gen_channel
    `ASSUME(NoSyncOnChannel_M, !(in_valid_i[i] && f_head && f_sync))
  end
  `ASSUME(LoneInput_M, !f_lone || !in_valid_i[i] || ((FInW'(i) == f_in) && (f_ivc == f_vc)))

  for (genvar v = 0; v < NumVcs; v++) begin : gen_f_vc
    localparam logic [FCntW-1:0] Depth = (v == 0) ? FDepth0 : (v == 3) ? FDepth3 : (v == 4) ? FDepth4 : FDepthSync;
    logic arrive, popped, open_q;
    logic [FCntW-1:0] occ_q, up_q, wait_q;
    assign arrive = in_valid_i[i] && (f_ivc == VcW'(v));
    assign f_arrive[i*NumVcs + v] = arrive;
    assign popped = pop[i*NumVcs + v];
    assign f_occ[(i*NumVcs + v)*FCntW +: FCntW] = occ_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        occ_q <= '0;
        up_q <= Depth;
        open_q <= 1'b0;
        wait_q <= '0;
      end else begin
        occ_q <= occ_q + FCntW'(arrive) - FCntW'(popped);
        up_q <= up_q - FCntW'(arrive) + FCntW'((i >= 1 && i < NumPorts) ? credit_out_o[i*NumVcs + v] : 1'b0);
        if (arrive) open_q <= !f_tail;
        wait_q <= (occ_q != '0 && !popped) ? wait_q + 1'b1 : '0;
      end
    end
    // A head exactly when no worm is open on this VC: worms do not interleave.
    `ASSUME(WormsWellFormed_M, !arrive || (f_head == !open_q))
    if (i == 0 || i >= NumPorts) begin : gen_injection
      localparam int unsigned Ch = (i == 0) ? 0 : i - NumPorts + 1;
      `ASSUME(InjectWhenReady_M, !arrive || local_ready_o[Ch*NumVcs + v])
    end else begin : gen_link
      `ASSUME(ArriveWithCredit_M, !arrive || (up_q != '0))
      `ASSERT(CreditsBackUpstream_P, up_q + occ_q == Depth,
              ("input %0d VC %0d: upstream credits and buffered flits do not add up", i, v))
    end
    `ASSERT(InputRoom_P, occ_q <= Depth, ("input %0d VC %0d holds more than its depth", i, v))
    `ASSERT(PopHeld_P, !popped || (occ_q != '0), ("input %0d VC %0d popped empty", i, v))
    // A lone worm's flits wait at most Trn - 1 cycles each.
    `ASSERT(LoneWormMoves_P, !(f_lone && (occ_q != '0) && (wait_q >= FCntW'(Trn - 1))) || popped,
            ("input %0d VC %0d: a lone worm's flit waited %0d cycles", i, v, wait_q))
  end
end

// ---------------------------------------------------------------------------------------
// Outputs: the downstream buffers
// ---------------------------------------------------------------------------------------
logic [NumPorts*NumVcs-1:0] f_sent_q;
for (genvar o = 1; o < NumPorts; o++) begin : gen_f_output
  for (genvar v = 0; v < NumVcs; v++) begin : gen_f_vc
    localparam logic [FCntW-1:0] Depth = (v == 0) ? FDepth0 : (v == 3) ? FDepth3 : (v == 4) ? FDepth4 : FDepthSync;
    logic send, credit;
    logic [FCntW-1:0] dn_q;
    assign send = out_valid_o[o] && (out_vc_o[o*VcW +: VcW] == VcW'(v));
    assign credit = credit_in_i[o*NumVcs + v];
    always_ff @(posedge clk_i) begin
      if (!rst_ni) dn_q <= '0;
      else dn_q <= dn_q + FCntW'(send) - FCntW'(credit);
    end
    `ASSUME(CreditForAFlitHeld_M, !credit || (dn_q != '0))
    `ASSUME(LoneDownstreamPrompt_M, !f_lone || (credit == (dn_q != '0)))
    `ASSERT(OutputRoom_P, dn_q <= Depth, ("output %0d VC %0d sent more than the downstream holds", o, v))
  end
end
for (genvar v = 0; v < NumVcs; v++) begin : gen_f_local_credit
  `ASSUME(NoLocalCredit_M, !credit_in_i[v])
end
`ASSERT(NoCreditError_P, !credit_error, ("the output unit saw a credit too many"))

// Every output carries a flit popped for it, or the emitter's.
for (genvar o = 0; o < NumOut; o++) begin : gen_f_source
  logic [IdxW-1:0] idx;
  assign idx = gnt_idx[o*IdxW +: IdxW];
  `ASSERT(OutputFromPop_P, !out_valid_o[o] ||
          ((idx < IdxW'(NumIn)) ? in_gnt[idx] : ((NumRegs > 0) && (o < NumPorts) && offer_gnt[o])),
          ("output %0d carries a flit nobody popped", o))
end

// ---------------------------------------------------------------------------------------
// The tracked flit
// ---------------------------------------------------------------------------------------
logic [1:0] f_state_q;  // 0: not picked yet, 1: in its input buffer, 2: gone
logic [FlitW-1:0] f_flit_q;
logic [FCntW-1:0] f_ahead_q, f_occ_now;
logic f_arr_now, f_pop_now, f_leaves;
always_comb begin
  f_arr_now = 1'b0;
  f_pop_now = 1'b0;
  f_occ_now = '0;
  for (int i = 0; i < NumIn; i++) begin
    for (int v = 0; v < NumVcs; v++) begin
      if (FInW'(i) == f_in && VcW'(v) == f_vc) begin
        f_arr_now = f_arrive[i*NumVcs + v];
        f_pop_now = pop[i*NumVcs + v];
        f_occ_now = f_occ[(i*NumVcs + v)*FCntW +: FCntW];
      end
    end
  end
end
assign f_leaves = (f_state_q == 2'd1) && f_pop_now && (f_ahead_q == '0);

always_ff @(posedge clk_i) begin
  if (!rst_ni) begin
    f_state_q <= 2'd0;
    f_flit_q <= '0;
    f_ahead_q <= '0;
  end else if (f_state_q == 2'd0) begin
    if (f_arr_now && f_pick) begin
      f_state_q <= 2'd1;
      f_flit_q <= in_flit_i[f_in*FlitW +: FlitW];
      f_ahead_q <= f_occ_now - FCntW'(f_pop_now);  // those before it, less the one leaving now
    end
  end else if (f_state_q == 2'd1 && f_pop_now) begin
    if (f_ahead_q == '0) f_state_q <= 2'd2;
    else f_ahead_q <= f_ahead_q - 1'b1;
  end
end

`ASSERT(TrackedHeld_P, (f_state_q != 2'd1) || (f_ahead_q < f_occ_now), ("the tracked flit was lost"))

// Its departure: the popped flit is it, on its VC, and it leaves exactly once.
logic [NumOut-1:0] f_won;
for (genvar o = 0; o < NumOut; o++) begin : gen_f_depart
  logic [FlitW-1:0] obits;
  logic same;
  assign obits = out_flit_o[o*FlitW +: FlitW];
  assign f_won[o] = gnt_valid[o] && (gnt_idx[o*IdxW +: IdxW] == IdxW'(f_in));
  if (o >= 1 && o < NumPorts) begin : gen_link
    // On a link the forwarded worm's head gets its head bit, a tree head's copy the
    // child's address and route.
    // Bits: head, then tail and sync, R, the header's view, the destination.
    assign same = (obits[FlitW-1] == (f_flit_q[FlitW-1] || req_promote[f_in])) &&
                  (obits[FlitW-2:FlitW-3] == f_flit_q[FlitW-2:FlitW-3]) &&
                  (obits[FlitW-5:meshsync_pkg::DataLsb] == f_flit_q[FlitW-5:meshsync_pkg::DataLsb]) &&
                  ((req_tree[f_in] && f_flit_q[FlitW-1]) ||
                   ((obits[FlitW-4] == f_flit_q[FlitW-4]) &&
                    (obits[meshsync_pkg::DataLsb-1:0] == f_flit_q[meshsync_pkg::DataLsb-1:0])));
  end else begin : gen_ni
    assign same = obits == f_flit_q;
  end
  `ASSERT(TrackedLeavesUnchanged_P, !(f_leaves && f_won[o]) ||
          (out_valid_o[o] && same && (out_vc_o[o*VcW +: VcW] == f_vc)),
          ("the tracked flit left on output %0d changed", o))
end
`ASSERT(TrackedPoppedInOrder_P, !f_leaves ||
        ((req_flits[f_in*FlitW +: FlitW] == f_flit_q) && (req_vc[f_in*VcW +: VcW] == f_vc)),
        ("the flit popped is not the tracked one, though those before it have left"))
`ASSERT(TrackedLeavesOnce_P, !f_leaves ||
        ((take[f_in] || req_drop[f_in]) ? (f_won == '0) : (f_won != '0)),
        ("the tracked flit was popped but went nowhere, or was taken and sent"))

// Not vacuous: the environment lets flits in, and the tracked one out.
`COVER(EveryInputArrives_C, &in_valid_i)
`COVER(TrackedArrived_C, f_state_q == 2'd1)
`COVER(LoneArrived_C, f_lone && f_state_q == 2'd1)
`COVER(TrackedLeft_C, f_state_q == 2'd2)
`COVER(LoneWormLeft_C, f_lone && f_state_q == 2'd2)

// The router's one round-robin arbiter, with its pointer: input arbitration of one input
// port over its five VCs (contract step 4: keep_i is the port's grant, so the pointer
// moves when the chosen VC pops, whoever took the flit), output arbitration of one output
// port (step 7: requesters 0..4 are the input ports, then the barrier emitter), and the
// barrier unit's choice among the inputs (step 5). The scan (meshsync_rr_pick) starts at
// the pointer and wraps; the first requester found wins and the pointer becomes
// winner + 1 (mod NumReq) when the grant is kept (keep_i = 0: a flit that needs a second
// output did not get it, or the input's request was not served).
`include "meshsync_assert.svh"

module meshsync_rr_arbiter #(
  /// Requesters.
  parameter int unsigned NumReq = 9
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic [NumReq-1:0]                 req_i,
  input  logic                              keep_i,
  output logic                              gnt_valid_o,
  output logic [$clog2(NumReq)-1:0]         gnt_idx_o
);

  localparam int unsigned IdxW = $clog2(NumReq);

  logic [IdxW-1:0] rr_q, rr_next;

  meshsync_rr_pick #(
    .N    (NumReq),
    .IdxW (IdxW)
  ) u_pick (
    .req_i   (req_i),
    .start_i (rr_q),
    .valid_o (gnt_valid_o),
    .idx_o   (gnt_idx_o),
    .next_o  (rr_next)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rr_q <= '0;
    end else if (gnt_valid_o && keep_i) begin
      rr_q <= rr_next;
    end
  end

  // A grant goes to one requester, the one it names; no grant without a request.
  `ASSERT(GrantToRequester_A, (gnt_valid_o == (|req_i)) && (!gnt_valid_o || req_i[gnt_idx_o]),
          ("a grant to no requester, or a request without a grant"))

`ifdef MESHSYNC_FORMAL_RR_ARBITER
  `include "rr_arbiter.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

// DELIBERATELY BROKEN copy of rtl/meshsync_output_arbiter.sv for the lockstep checker's
// own test (tb/rtl/test_lockstep.cpp): after granting input +X (requester 1) the
// round-robin pointer skips input -X (requester 2). Never use it in a design.
module meshsync_output_arbiter #(
  /// Requesters: the five inputs plus the barrier registers.
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
      // The bug: -X loses its turn after +X.
      rr_q <= (gnt_idx_o == IdxW'(1)) ? IdxW'(3) : rr_next;
    end
  end

endmodule

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
  output logic                              gnt_valid_o,
  output logic [$clog2(NumReq)-1:0]         gnt_idx_o
);

  localparam int unsigned IdxW = $clog2(NumReq);
  localparam logic [IdxW-1:0] LastIdx = IdxW'(NumReq - 1);

  logic [IdxW-1:0] rr_q, rr_d;
  logic [NumReq-1:0] at_or_after_rr;
  logic upper_valid, any_valid;
  logic [IdxW-1:0] upper_idx, any_idx;

  // Requesters at index >= out_rr first, then the rest from 0.
  always_comb begin
    for (int r = 0; r < NumReq; r++) begin
      at_or_after_rr[r] = IdxW'(r) >= rr_q;
    end
  end

  always_comb begin
    upper_valid = 1'b0;
    upper_idx = '0;
    any_valid = 1'b0;
    any_idx = '0;
    for (int r = NumReq - 1; r >= 0; r--) begin
      if (req_i[r] && at_or_after_rr[r]) begin
        upper_valid = 1'b1;
        upper_idx = IdxW'(r);
      end
      if (req_i[r]) begin
        any_valid = 1'b1;
        any_idx = IdxW'(r);
      end
    end
  end

  assign gnt_valid_o = any_valid;
  assign gnt_idx_o = upper_valid ? upper_idx : any_idx;

  always_comb begin
    rr_d = rr_q;
    if (gnt_valid_o) begin
      rr_d = (gnt_idx_o == LastIdx) ? '0 : gnt_idx_o + 1'b1;
      // The bug: -X loses its turn after +X.
      if (gnt_idx_o == IdxW'(1)) rr_d = IdxW'(3);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rr_q <= '0;
    end else begin
      rr_q <= rr_d;
    end
  end

endmodule

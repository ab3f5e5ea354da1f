// Round-robin pick, combinational: the first set bit of req_i at index start_i or after
// it, wrapping around to index 0. next_o is the index after the pick (mod N), the start
// of the next scan once the pick is served. meshsync_rr_arbiter (every arbiter of the
// router: over an input's 5 VCs, step 4; over the inputs for the barrier unit, step 5;
// over the inputs and the emitter at each output, step 7) and the tree claim use it,
// each keeping its own pointer.
module meshsync_rr_pick #(
  /// Requesters (>= 2).
  parameter int unsigned N = 3,
  /// Index width.
  parameter int unsigned IdxW = $clog2(N)
) (
  input  logic [N-1:0]    req_i,
  // Where the scan starts (the round-robin pointer), 0 .. N-1.
  input  logic [IdxW-1:0] start_i,
  output logic            valid_o,
  output logic [IdxW-1:0] idx_o,
  output logic [IdxW-1:0] next_o
);

  localparam logic [IdxW-1:0] LastIdx = IdxW'(N - 1);

  logic upper_valid;
  logic [IdxW-1:0] upper_idx, any_idx;

  // The lowest requester at or after start_i, else the lowest of all; scanning downwards
  // leaves the lowest one.
  always_comb begin
    upper_valid = 1'b0;
    upper_idx = '0;
    valid_o = 1'b0;
    any_idx = '0;
    for (int r = N - 1; r >= 0; r--) begin
      if (req_i[r] && (IdxW'(r) >= start_i)) begin
        upper_valid = 1'b1;
        upper_idx = IdxW'(r);
      end
      if (req_i[r]) begin
        valid_o = 1'b1;
        any_idx = IdxW'(r);
      end
    end
  end

  assign idx_o = upper_valid ? upper_idx : any_idx;
  assign next_o = (idx_o == LastIdx) ? '0 : idx_o + 1'b1;

endmodule

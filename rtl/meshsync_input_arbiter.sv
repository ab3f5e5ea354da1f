// Input arbitration of one input port (contract step 4): the first eligible VC in
// round-robin order starting at in_rr is the port's request; in_rr becomes VC + 1 (mod 3)
// when that VC pops, whether the barrier unit or an output took the flit.
module meshsync_input_arbiter (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [meshsync_pkg::NumVcs-1:0] eligible_i,
  // The request below was served this cycle.
  input  logic                         pop_i,
  output logic                         sel_valid_o,
  output logic [meshsync_pkg::VcW-1:0] sel_vc_o
);

  localparam int unsigned NumVcs = meshsync_pkg::NumVcs;

  logic [meshsync_pkg::VcW-1:0] rr_q, rr_d;
  logic [meshsync_pkg::VcW:0] cand;

  always_comb begin
    sel_valid_o = 1'b0;
    sel_vc_o = '0;
    cand = '0;
    for (int k = NumVcs - 1; k >= 0; k--) begin
      // Candidate rr + k (mod 3); scanning k downwards leaves the first one in order.
      cand = {1'b0, rr_q} + (meshsync_pkg::VcW + 1)'(k);
      if (cand >= (meshsync_pkg::VcW + 1)'(NumVcs)) cand = cand - (meshsync_pkg::VcW + 1)'(NumVcs);
      if (eligible_i[cand[meshsync_pkg::VcW-1:0]]) begin
        sel_valid_o = 1'b1;
        sel_vc_o = cand[meshsync_pkg::VcW-1:0];
      end
    end
  end

  always_comb begin
    rr_d = rr_q;
    if (pop_i) begin
      rr_d = (sel_vc_o == meshsync_pkg::VcW'(NumVcs - 1)) ? '0 : sel_vc_o + 1'b1;
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

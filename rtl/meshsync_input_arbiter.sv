// Input arbitration of one input port (contract step 4): the first eligible VC in
// round-robin order starting at in_rr is the port's request; in_rr becomes VC + 1 (mod 5)
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

  logic [meshsync_pkg::VcW-1:0] rr_q, rr_next;

  meshsync_rr_pick #(
    .N    (meshsync_pkg::NumVcs),
    .IdxW (meshsync_pkg::VcW)
  ) u_pick (
    .req_i   (eligible_i),
    .start_i (rr_q),
    .valid_o (sel_valid_o),
    .idx_o   (sel_vc_o),
    .next_o  (rr_next)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rr_q <= '0;
    end else if (pop_i) begin
      rr_q <= rr_next;
    end
  end

`ifndef SYNTHESIS
  // Assertion (simulation only): a grant goes to one requester, the one it names; no
  // grant without a request.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      GrantToRequester_A: assert ((sel_valid_o == (|eligible_i)) && (!sel_valid_o || eligible_i[sel_vc_o]))
        else $error("a grant to no requester, or a request without a grant");
    end
  end
`endif

endmodule

// Unit proof of meshsync_credit_counters (scripts/formal credit_counters), included in the
// generate block of one VC's counter (gen_vc[v].gen_count), so it sees count_q.
//
// Environment: an abstract downstream input buffer for this VC. A flit sent in cycle c
// is on the link in c + 1 and in the buffer from c + 2 (one cycle of link, as at Tp = 1);
// the buffer pops a flit whenever the solver likes (f_drain) and has one; the credit of
// a popped flit is on its way back for one cycle and presented to the counter (credit_in_i)
// the cycle after the pop. The output unit sends only with a credit (credit_ok_o): that
// is the router's side of the protocol (its SendWithCredit_A).
//
// Property, credit conservation: credits held + flits on the link + flits in the
// downstream buffer + credits on their way back = the buffer's depth, every cycle out of
// reset. Hence a flit always finds room downstream.
`include "proof_reset.svh"

(* anyseq *) logic f_drain;
logic f_link_q, f_back_q, f_pop;
logic [CountW-1:0] f_occ_q;
assign f_pop = f_drain && (f_occ_q != '0);

always_ff @(posedge clk_i) begin
  if (!rst_ni) begin
    f_link_q <= 1'b0;
    f_back_q <= 1'b0;
    f_occ_q <= '0;
  end else begin
    f_link_q <= send_i[v];
    f_back_q <= f_pop;
    f_occ_q <= f_occ_q + CountW'(f_link_q) - CountW'(f_pop);
  end
end

`ASSUME(CreditFromDownstream_M, credit_in_i[v] == f_back_q)
`ASSUME(SendOnCredit_M, !send_i[v] || credit_ok_o[v])

`ASSERT(CreditConservation_P,
        ({2'b00, count_q} + (CountW + 2)'(f_link_q) + {2'b00, f_occ_q} + (CountW + 2)'(f_back_q)) ==
        {2'b00, Depth}, ("VC %0d: credits are not conserved", v))
`ASSERT(RoomForEveryFlit_P, !f_link_q || (f_occ_q < Depth), ("VC %0d: a flit found no room", v))
`ASSERT(NoCreditOverflow_P, !overflow[v], ("VC %0d: a credit came back with every credit held", v))

`COVER(AllCreditsOut_C, count_q == '0)
`COVER(DownstreamFull_C, f_occ_q == Depth)
`COVER(SendAndCreditTogether_C, send_i[v] && credit_in_i[v])

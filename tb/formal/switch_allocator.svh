// Unit proof of meshsync_switch_allocator (scripts/formal switch_allocator), included at
// module scope. The requests are free, within what an input port can ask (its req_*
// outputs, docs/microarchitecture.md step 7): a consume request goes to the barrier unit
// and no output, and only it may be taken (take_i); only a tree request is dropped; an
// absorbing flit (req_copy) routes to a link and is no tree flit; a tree worm claims
// outputs that exist. An input pops one VC exactly when it is granted (meshsync_input_port
// pops its arbiter's VC on in_gnt_o). The emitter offers on any port.
//
// Properties: a grant goes to a requester that asked for that output (an input, or the
// emitter that offered); flit conservation (the module's FlitConserved*_A; its
// OnePopPerGrant_A is the input ports' duty, assumed here as PopOnGrant_M): every flit popped leaves through exactly one output, or a link and
// its NI output, or every output its tree worm claimed, or none (taken, dropped), and no
// flit leaves that was not popped.
`include "proof_reset.svh"

for (genvar i = 0; i < NumIn; i++) begin : gen_f_in
  logic [NumVcs-1:0] f_pop;
  assign f_pop = pop_i[i*NumVcs +: NumVcs];
  `ASSUME(PopOnGrant_M, ((f_pop & (f_pop - 1'b1)) == '0) && ((f_pop != '0) == in_gnt_o[i]))
  `ASSUME(TakeOnlyConsume_M, !take_i[i] || (req_valid_i[i] && req_consume_i[i]))
  `ASSUME(ConsumeIsPlain_M, !req_consume_i[i] || (!req_tree_i[i] && !req_copy_i[i] && !req_drop_i[i]))
  `ASSUME(DropOnlyTree_M, !req_drop_i[i] || req_tree_i[i])
  `ASSUME(CopyToALink_M, !req_copy_i[i] || (!req_tree_i[i] && (req_out[i] != meshsync_pkg::PortLocal) &&
                                            (req_out[i] < PortW'(NumPorts))))
  `ASSUME(RouteExists_M, req_tree_i[i] || req_consume_i[i] || (req_out[i] < PortW'(NumPorts)))
  // A tree worm claims links and its own NI output (meshsync_tree_claim).
  for (genvar o = 0; o < NumOut; o++) begin : gen_f_claim
    if (o != 0 && o < NumPorts) begin : gen_link
    end else if (o != meshsync_pkg::eject_of(i, NiPorts)) begin : gen_other_ni
      `ASSUME(ClaimOwnNi_M, !tree_outs[i][o])
    end
  end

  // Each output granted to input i was asked for by it.
  for (genvar o = 0; o < NumOut; o++) begin : gen_f_out
    `ASSERT(GrantToAsker_P,
            !(gnt_valid_o[o] && (gnt_idx[o] == IdxW'(i))) ||
            (req_valid_i[i] && !req_consume_i[i] &&
             (req_tree_i[i] ? tree_outs[i][o]
                            : ((req_out[i] == PortW'(o)) ||
                               (o == meshsync_pkg::eject_of(i, NiPorts) && (req_copy_i[i] || req_out[i] == meshsync_pkg::PortLocal))))),
            ("output %0d granted to input %0d, which did not ask for it", o, i))
  end
  `COVER(AbsorbedAndForwarded_C, in_gnt_o[i] && req_copy_i[i])
  `COVER(TreeOnSeveral_C, in_gnt_o[i] && req_tree_i[i] && ((tree_outs[i] & (tree_outs[i] - 1'b1)) != '0))
end
if (HasEmitter) begin : gen_f_emitter
  for (genvar o = 0; o < NumPorts; o++) begin : gen_f_port
    `ASSERT(EmitterOffered_P, !offer_gnt_o[o] || offer_i[o], ("the emitter won port %0d without an offer", o))
  end
end
`COVER(AllFiveContend_C, (&req_valid_i[NumPorts-1:0]) && (req_out_i[NumPorts*PortW-1:0] == '0) && !(|req_tree_i) &&
                         !(|req_consume_i))

// Switch allocation (contract step 7): which requester each output carries this cycle,
// and which inputs pop. Requesters are the inputs (0..NumIn-1) and, with registers, the
// barrier emitter (NumIn), which offers on the five ports only.
// The four links are arbitrated first. A flit absorbed and forwarded (req_copy) then asks
// for its NI output (Local, or its input's ejection output) only if it won its link, and
// leaves only if it wins that too: a link it won alone stays idle and keeps its pointer.
// A tree flit leaves only with every output its worm claimed. An ejection output has one
// requester, its input, which wins it whenever it asks.
`include "meshsync_assert.svh"

module meshsync_switch_allocator #(
  /// Inputs: the five ports and an all-port NI's injection channels 1-3.
  parameter int unsigned NumIn = meshsync_pkg::NumPorts,
  /// Outputs: the five ports and an all-port NI's ejection outputs.
  parameter int unsigned NumOut = meshsync_pkg::NumPorts,
  /// NI channels (1: one-port; 4: all-port, link inputs eject on their own output).
  parameter int unsigned NiPorts = 1,
  /// The router has barrier registers, hence an emitter among the requesters.
  parameter bit HasEmitter = 1'b1,
  /// Width of a grant index.
  parameter int unsigned IdxW = $clog2(NumIn + 1),
  /// VCs per input (pop_i's fields).
  parameter int unsigned NumVcs = meshsync_pkg::ClassVcs
) (
  input  logic                                        clk_i,
  input  logic                                        rst_ni,
  // Per input, its request (meshsync_input_port's req_*).
  input  logic [NumIn-1:0]                            req_valid_i,
  input  logic [NumIn-1:0]                            req_consume_i,
  input  logic [NumIn*meshsync_pkg::PortW-1:0]        req_out_i,
  input  logic [NumIn-1:0]                            req_copy_i,
  input  logic [NumIn-1:0]                            req_tree_i,
  input  logic [NumIn-1:0]                            req_drop_i,
  // Per input, the outputs its tree worm claimed (this cycle's claim included).
  input  logic [NumIn*NumOut-1:0]                     tree_outs_i,
  // The barrier unit took input i's message (it pops, through no output).
  input  logic [NumIn-1:0]                            take_i,
  // The emitter's offer per port.
  input  logic [meshsync_pkg::NumPorts-1:0]           offer_i,
  // Per output: granted and used, and to which requester (NumIn: the emitter).
  output logic [NumOut-1:0]                           gnt_valid_o,
  output logic [NumOut*IdxW-1:0]                      gnt_idx_o,
  // Per input: its head flit leaves (one pop, whatever it was sent to).
  output logic [NumIn-1:0]                            in_gnt_o,
  // Per port: the emitter's offer leaves.
  output logic [meshsync_pkg::NumPorts-1:0]           offer_gnt_o,
  // Per input i and VC v (bit i*NumVcs+v): the inputs' pops, read by the flit
  // conservation assertion only.
  input  logic [NumIn*NumVcs-1:0]                     pop_i
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned NumReq = NumIn + (HasEmitter ? 1 : 0);

  // A grant to the emitter (requester NumIn), not to an input.
  function automatic logic by_emitter(logic [IdxW-1:0] idx);
    by_emitter = HasEmitter && (idx == IdxW'(NumIn));
  endfunction

  // The ports that carry one field per input, unpacked (Yosys 0.23 takes no array ports).
  logic [PortW-1:0] req_out [NumIn];
  logic [NumOut-1:0] tree_outs [NumIn];
  for (genvar i = 0; i < NumIn; i++) begin : gen_unpack
    assign req_out[i] = req_out_i[i*PortW +: PortW];
    assign tree_outs[i] = tree_outs_i[i*NumOut +: NumOut];
  end

  logic [NumOut-1:0] gnt_valid, gnt_keep;
  logic [IdxW-1:0] gnt_idx [NumOut];
  // The links' grants (outputs 1-4) and Local's, kept apart: the NI outputs' requests
  // depend on the links' grants.
  logic [NumPorts-1:1] link_valid;
  logic [IdxW-1:0] link_idx [1:NumPorts-1];
  logic local_valid;
  logic [IdxW-1:0] local_idx;
  logic [NumIn-1:0] won_link;  // per input: its request's link granted to it
  logic [NumIn-1:0] won_links; // per input: every link its tree flit claimed granted to it
  logic [NumIn-1:0] tree_ni;   // per input: its tree flit claimed its NI output
  logic [NumIn-1:0] ni_req;    // per input: it asks for its NI output
  logic [NumIn-1:0] ni_won;    // per input: its NI output granted to it

  // ---------------------------------------------------------------------------------------
  // The five ports' arbiters. Pass 1, the links (outputs 1-4): an input asks for its
  // routed port, or a tree flit for each link its worm claimed. Pass 2, Local (output 0):
  // an input asks for its NI output (ni_req, which depends on pass 1's grants) if that is
  // Local. The emitter offers on all five.
  // ---------------------------------------------------------------------------------------
  for (genvar o = 0; o < NumPorts; o++) begin : gen_port_output
    logic [NumReq-1:0] req;
    logic valid;
    logic [IdxW-1:0] idx;
    for (genvar i = 0; i < NumIn; i++) begin : gen_req_input
      if (o == 0) begin : gen_local
        assign req[i] = ni_req[i] && (meshsync_pkg::eject_of(i, NiPorts) == 0);
      end else begin : gen_link
        assign req[i] = req_valid_i[i] && !req_consume_i[i] &&
                        (req_tree_i[i] ? (!req_drop_i[i] && tree_outs[i][o])
                                       : (req_out[i] == PortW'(o)));
      end
    end
    if (HasEmitter) begin : gen_req_emitter
      assign req[NumIn] = offer_i[o];
    end

    meshsync_rr_arbiter #(
      .NumReq (NumReq)
    ) u_arbiter (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_i       (req),
      .keep_i      (gnt_keep[o]),
      .gnt_valid_o (valid),
      .gnt_idx_o   (idx)
    );

    // Cover point (scripts/coverage): all five contend for this output, every port's
    // input that may route here (a flit never turns back to the port it came from; Local
    // does not send to itself) and the emitter where there is one.
    localparam logic [NumReq-1:0] Contenders =
        (NumReq'({NumPorts{1'b1}}) & ~(NumReq'(1) << o) & ~NumReq'(1)) |
        NumReq'(o != 0) | (HasEmitter ? (NumReq'(1) << NumIn) : '0);
    `COVER(AllContend_C, (req & Contenders) == Contenders)

    if (o == 0) begin : gen_local
      assign local_valid = valid;
      assign local_idx = idx;
    end else begin : gen_link
      assign link_valid[o] = valid;
      assign link_idx[o] = idx;
    end
    assign gnt_idx[o] = idx;
  end

  // Pass 1's winners.
  always_comb begin
    won_link = '0;
    won_links = '1;
    for (int i = 0; i < NumIn; i++) begin
      for (int o = 1; o < NumPorts; o++) begin
        if (link_valid[o] && (link_idx[o] == IdxW'(i))) won_link[i] = 1'b1;
        if (tree_outs[i][o] && !(link_valid[o] && (link_idx[o] == IdxW'(i))))
          won_links[i] = 1'b0;
      end
    end
  end

  // Pass 2's requests: the NI outputs (Local, or an all-port input's ejection output).
  for (genvar i = 0; i < NumIn; i++) begin : gen_ni_req
    assign tree_ni[i] = tree_outs[i][meshsync_pkg::eject_of(i, NiPorts)];
    assign ni_req[i] = req_valid_i[i] && !req_consume_i[i] &&
                       (req_tree_i[i] ? (!req_drop_i[i] && tree_ni[i] && won_links[i])
                                      : req_copy_i[i] ? won_link[i]
                                                      : (req_out[i] == meshsync_pkg::PortLocal));
  end

  assign gnt_valid[NumPorts-1:0] = {link_valid, local_valid};
  // All-port: input p's ejection output (4+p) carries its flits alone.
  for (genvar o = NumPorts; o < NumOut; o++) begin : gen_eject_output
    assign gnt_valid[o] = ni_req[o - NumPorts + 1];
    assign gnt_idx[o] = IdxW'(o - NumPorts + 1);
  end

  for (genvar i = 0; i < NumIn; i++) begin : gen_ni_won
    if (meshsync_pkg::eject_of(i, NiPorts) == 0) begin : gen_local
      assign ni_won[i] = local_valid && (local_idx == IdxW'(i));
    end else begin : gen_eject
      assign ni_won[i] = ni_req[i];
    end
  end

  // ---------------------------------------------------------------------------------------
  // Withdrawn grants, and the grants back to the requesters
  // ---------------------------------------------------------------------------------------
  // A link granted to an absorbing flit that lost its NI output is withdrawn.
  always_comb begin
    gnt_keep = '1;
    for (int o = 1; o < NumPorts; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if ((link_idx[o] == IdxW'(i)) && req_copy_i[i] && !ni_won[i]) begin
          gnt_keep[o] = 1'b0;
        end
        // A tree flit leaves only with every output it claimed.
        if ((link_idx[o] == IdxW'(i)) && req_tree_i[i] &&
            !(won_links[i] && (!tree_ni[i] || ni_won[i]))) begin
          gnt_keep[o] = 1'b0;
        end
      end
    end
  end
  assign gnt_valid_o = gnt_valid & gnt_keep;
  for (genvar o = 0; o < NumOut; o++) begin : gen_pack_gnt
    assign gnt_idx_o[o*IdxW +: IdxW] = gnt_idx[o];
  end

  // One pop per input, whatever it sent to.
  always_comb begin
    // A dropped tree worm's flit leaves its input through no output.
    in_gnt_o = take_i | (req_valid_i & req_drop_i);
    offer_gnt_o = '0;
    for (int o = 0; o < NumOut; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if (gnt_valid_o[o] && (gnt_idx[o] == IdxW'(i))) in_gnt_o[i] = 1'b1;
      end
    end
    for (int o = 0; o < NumPorts; o++) begin
      if (gnt_valid_o[o] && by_emitter(gnt_idx[o])) offer_gnt_o[o] = 1'b1;
    end
  end

  if (!HasEmitter) begin : gen_no_emitter
    logic unused_offer;
    assign unused_offer = ^offer_i;
  end

  // Flit conservation (pop_i is there for it; synthesis removes what only these read).
  // Every input pops one flit on a grant and none without, and every flit popped leaves
  // through exactly one output, or through a link and its NI output (absorbed and
  // forwarded), or through every output its tree worm claimed, or through none (taken by
  // the barrier unit, or a dropped tree worm's).
  localparam int unsigned OutsW = $clog2(NumOut + 1);
  for (genvar i = 0; i < NumIn; i++) begin : gen_conservation
    logic [NumVcs-1:0] pop;
    logic [NumOut-1:0] won;  // the outputs input i's flit leaves on
    logic [OutsW-1:0] outs;  // how many
    logic served;            // popped for an output (not taken, not dropped)
    assign pop = pop_i[i*NumVcs +: NumVcs];
    assign served = in_gnt_o[i] && !take_i[i] && !req_drop_i[i];
    always_comb begin
      outs = '0;
      for (int o = 0; o < NumOut; o++) begin
        won[o] = gnt_valid_o[o] && (gnt_idx[o] == IdxW'(i));
        outs = outs + OutsW'(won[o]);
      end
    end
    `ASSERT(OnePopPerGrant_A, ((pop & (pop - 1'b1)) == '0) && ((pop != '0) == in_gnt_o[i]),
            ("input %0d popped VCs %b on grant %0d", i, pop, in_gnt_o[i]))
    `ASSERT(FlitConserved_A, served || outs == '0,
            ("input %0d: a flit left that was not popped", i))
    `ASSERT(FlitConservedTree_A, !(served && req_tree_i[i]) || won == tree_outs[i],
            ("input %0d: a tree flit left on outputs %b, not on those it claimed, %b", i, won,
             tree_outs[i]))
    `ASSERT(FlitConservedWorm_A, !(served && !req_tree_i[i]) || outs == OutsW'(1) + OutsW'(req_copy_i[i]),
            ("input %0d: a popped flit left on %0d outputs", i, outs))
  end

`ifdef MESHSYNC_FORMAL_SWITCH_ALLOCATOR
  `include "switch_allocator.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

// meshsync router: five ports (Local, +X, -X, +Y, -Y), five VC classes per port and up to
// seven more unicast VCs (UnicastVcs; NumVcs in all), VC allocation per output, a
// one-port or all-port network interface (NiPorts), credit flow control, dimension-order
// routing (XY for worms, XY or YX for sync messages), snake routing and absorb-and-forward
// for multidestination worms, tree worms, and the barrier unit with its register file.
// Cycle for cycle the C++ RouterCore (model/core/router_core.cpp); the contract is
// docs/microarchitecture.md, the module map docs/rtl.md.
//
// This module is wiring: the input units (meshsync_input_port, one per input, with the
// CAM lookup of their arrivals), the barrier hardware (meshsync_barrier: register file,
// unit, emitter, lanes), the tree claim, the switch allocator, the crossbar and the output
// unit (credits and VC owners).
//
// The ports are flat vectors (input i's field at i * width) on purpose: this is the
// Verilated top, and the C++ side (model/cosim/rtl_ports.hpp) drives and reads them bit
// by bit; the software port is packed into meshsync_pkg::reg_req_t right below. Inside,
// a per-input or per-output signal the router reads itself is indexed (an unpacked array
// or a vector per input); the buses between the units are flat in the units' port layout
// (Yosys 0.23 takes no array ports), each input's field sliced once where it connects.
//
// Timing at the ports (c is the current cycle):
//   - a flit presented on in_* in cycle c-1 is in its input buffer in cycle c (arrival c);
//   - out_* carry the flits granted in cycle c, combinationally (the mesh adds the link);
//   - credit_out_o: a pop from non-Local input p, VC v, in cycle c (combinational);
//   - a credit presented on credit_in_i in cycle k-1 is usable in cycle k;
//   - the software register port acts at the clock edge, after everything the hardware
//     did in that cycle (the model's NI programs between two router steps);
//   - local_ready_o[ch*NumVcs+v]: a flit presented now on injection channel ch, VC v, fits;
//   - inj_pop_o[ch*NumVcs+v]: a flit leaves injection channel ch's buffer, VC v (combinational);
//   - idle_o: nothing buffered and nothing waiting, from the state at the start of cycle c.
//
// The parameters' defaults are the design point an architect synthesizes (docs/rtl.md, "The
// design point"): 4-flit worm buffers, 2-flit sync buffers, a 10-flit tree VC (a head, a
// fragment index and 32 bytes), four registers of four children (a BTM member's most). The
// simulator's default router (the papers' network, 16-flit buffers, 66-flit tree worms) is
// the configuration `model` of rtl/configurations.txt.
`include "meshsync_assert.svh"

module meshsync_router #(
  /// Mesh width (columns); sets the x coordinate width.
  parameter int unsigned MeshW = 8,
  /// Mesh height (rows); sets the y coordinate width.
  parameter int unsigned MeshH = 8,
  `include "meshsync_router_params.svh"
  ,
  /// Inputs: the five ports, then injection channels 1..NiPorts-1 (derived; do not set).
  parameter int unsigned NumIn = meshsync_pkg::NumPorts + NiPorts - 1,
  /// Outputs: the five ports, then all-port ejection outputs (derived; do not set).
  parameter int unsigned NumOut = (NiPorts > 1) ? meshsync_pkg::NumPorts + 4 : meshsync_pkg::NumPorts,
  /// VCs per port: the five classes, then unicast VCs 5.. (derived; do not set). A count
  /// outside 1..8 is refused below; the nearest one is built until then.
  parameter int unsigned NumVcs = meshsync_pkg::ClassVcs - 1 +
      ((UnicastVcs < 1) ? 1 : (UnicastVcs > meshsync_pkg::MaxUnicastVcs) ? meshsync_pkg::MaxUnicastVcs : UnicastVcs),
  /// Bits of a VC number on the ports: 3, or 4 beyond 8 VCs (derived; do not set).
  parameter int unsigned VcW = meshsync_pkg::vc_width(NumVcs),
  /// Bits of an x coordinate.
  parameter int unsigned CoordXW = (MeshW > 1) ? $clog2(MeshW) : 1,
  /// Bits of a y coordinate.
  parameter int unsigned CoordYW = (MeshH > 1) ? $clog2(MeshH) : 1,
  /// Width of the software port's child count (can say MaxChildren + 1: "too many").
  parameter int unsigned NumChildrenW = $clog2(MaxChildren + 2)
) (
  input  logic                                                   clk_i,
  input  logic                                                   rst_ni,
  // The router's coordinates: straps, sampled while rst_ni is low.
  input  logic [CoordXW-1:0]                                     my_x_i,
  input  logic [CoordYW-1:0]                                     my_y_i,
  // Input side, input i at bits i*...: Local (the NI's injection channel 0), +X, -X, +Y,
  // -Y, then (all-port) injection channels 1-3, which carry worms only.
  input  logic [NumIn-1:0]                                       in_valid_i,
  input  logic [NumIn*VcW-1:0]                                   in_vc_i,
  input  logic [NumIn*FlitW-1:0]                                 in_flit_i,
  output logic [NiPorts*NumVcs-1:0]                              local_ready_o,
  // Per injection channel ch and VC v (bit ch*NumVcs+v): a flit left that channel's input
  // buffer in this cycle (combinational, like credit_out_o): which of its flits the NI
  // has handed on, where local_ready_o says only that one more fits.
  output logic [NiPorts*NumVcs-1:0]                              inj_pop_o,
  // Output side: Local, +X, -X, +Y, -Y, then (all-port) the ejection outputs of inputs
  // +X, -X, +Y, -Y.
  output logic [NumOut-1:0]                                      out_valid_o,
  output logic [NumOut*VcW-1:0]                                  out_vc_o,
  output logic [NumOut*FlitW-1:0]                                out_flit_o,
  // Credits, bit p*NumVcs+v. The Local bits of credit_out_o are 0 and of credit_in_i unused.
  output logic [meshsync_pkg::NumPorts*NumVcs-1:0]               credit_out_o,
  input  logic [meshsync_pkg::NumPorts*NumVcs-1:0]               credit_in_i,
  // Software register port (from the NI).
  input  logic [1:0]                                             reg_op_i,
  input  logic [meshsync_pkg::GidW-1:0]                          reg_gid_i,
  input  logic                                                   reg_parent_valid_i,
  input  logic [CoordXW-1:0]                                     reg_parent_x_i,
  input  logic [CoordYW-1:0]                                     reg_parent_y_i,
  input  logic                                                   reg_route_i,
  input  logic [meshsync_pkg::DataW-1:0]                         reg_slot_i,
  input  logic                                                   reg_transit_i,
  input  logic [NumChildrenW-1:0]                                reg_num_children_i,
  input  logic [MaxChildren*CoordXW-1:0]                         reg_child_x_i,
  input  logic [MaxChildren*CoordYW-1:0]                         reg_child_y_i,
  input  logic [MaxChildren-1:0]                                 reg_child_route_i,
  output logic                                                   reg_ok_o,
  // Protocol violation seen this cycle (the model throws): an arrival on a flag already
  // set, a write into a full buffer, a flit on the wrong VC, a credit too many, an outbox
  // or CS path count overflow.
  output logic                                                   error_o,
  // No flit in any input buffer (any port, any VC), no batch pending or being sent, and
  // no reduction message whose head's delay still counts down in the barrier unit.
  // Combinational on the state at the start of the cycle only (not on this cycle's
  // inputs): one NOR over those bits. While idle_o = 1 and no input is presented (in_valid_i,
  // credit_in_i and reg_op_i all 0), a clock edge moves no flit and changes no state, so
  // the mesh co-simulation may skip clocking the router; in hardware it is the natural
  // enable of a clock gate (woken by any of those inputs).
  output logic                                                   idle_o
);

  // Parameter checks at elaboration (meshsync_parameter_check): first, so that its message
  // comes before what a bad value breaks further down.
  meshsync_parameter_check #(
    .MeshW (MeshW), .MeshH (MeshH), .FlitW (FlitW), .BufferDepth (BufferDepth),
    .SyncBufferDepth (SyncBufferDepth), .TreeBufferDepth (TreeBufferDepth),
    .PathWorms (PathWorms), .NumRegs (NumRegs), .MaxChildren (MaxChildren), .Trn (Trn),
    .Trm (Trm), .ReduceWords (ReduceWords), .NiPorts (NiPorts), .UnicastVcs (UnicastVcs),
    .VcAllocation (VcAllocation), .RoutingStage (RoutingStage), .VaStage (VaStage)
  ) u_parameter_check ();

  // The depths the units are built with: a depth below the range is refused above; the
  // smallest buildable depth here lets elaboration reach that message instead of stopping
  // at a zero-width buffer.
  localparam int unsigned WormDepth = (BufferDepth > 0) ? BufferDepth : 1;
  localparam int unsigned SyncDepth = (SyncBufferDepth > 0) ? SyncBufferDepth : 1;
  localparam int unsigned TreeDepth = (TreeBufferDepth == 1) ? 2 : TreeBufferDepth;

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned ClassVcs = meshsync_pkg::ClassVcs;
  localparam int unsigned ClassVcW = meshsync_pkg::ClassVcW;
  localparam int unsigned Lanes = NumVcs - ClassVcs + 1;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  // Output requesters: the inputs, then the barrier emitter (with registers).
  localparam int unsigned NumReq = NumIn + ((NumRegs > 0) ? 1 : 0);
  localparam int unsigned IdxW = $clog2(NumReq);
  localparam int unsigned InW = (NumIn > 1) ? $clog2(NumIn) : 1;
  localparam int unsigned RegSlots = (NumRegs > 0) ? NumRegs : 1;
  localparam int unsigned ArrivedW = $clog2(MaxChildren + 1);
  // A worm head's delay: the allocation pipeline's head stages, then Trn.
  localparam int unsigned HeadStages = RoutingStage + VaStage;
  localparam int unsigned MaxDelay = (Trm > Trn + HeadStages) ? Trm : Trn + HeadStages;
  localparam int unsigned CntW = (MaxDelay > 1) ? $clog2(MaxDelay) : 1;
  // At most one CS path per other node crosses a router.
  localparam int unsigned PathRefsW = (MeshW * MeshH > 1) ? $clog2(MeshW * MeshH) : 1;

  // The register request carries a child count in a fixed width.
  if (NumChildrenW > meshsync_pkg::ChildCountW) begin : gen_check_children
    $error("MaxChildren too large for meshsync_pkg::ChildCountW");
  end

  // The router's own coordinates, sampled during reset: they are straps that never change
  // afterwards. Held in flip-flops, they keep the routes, and with them the arbitration,
  // out of the input pins' combinational cone, so a simulator evaluates that logic once per
  // clock edge rather than again on every input change (Verilator: twice as often;
  // docs/performance.md).
  logic [CoordXW-1:0] my_x_q;
  logic [CoordYW-1:0] my_y_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      my_x_q <= my_x_i;
      my_y_q <= my_y_i;
    end
  end

  logic [CoordW-1:0] here_x, here_y;
  assign here_x = CoordW'(my_x_q);
  assign here_y = CoordW'(my_y_q);

  // ---------------------------------------------------------------------------------------
  // Signals between the units
  // ---------------------------------------------------------------------------------------
  // The register file's state (tied off without registers): the arrivals' CAM lookups and
  // the tree claim read it.
  logic [RegSlots-1:0] reg_valid, reg_member, reg_transit;
  logic [RegSlots*GidW-1:0] reg_gid;
  logic [RegSlots*NumChildrenW-1:0] reg_num_children;
  logic [RegSlots*MaxChildren*CoordXW-1:0] reg_child_x;
  logic [RegSlots*MaxChildren*CoordYW-1:0] reg_child_y;
  logic [RegSlots*MaxChildren-1:0] reg_child_route;

  // Per input: the flit presented, its request (meshsync_input_port; req_flits is req_flit
  // flat, for the crossbar and the barrier unit), its grant, and the barrier unit's answer.
  logic [FlitW-1:0] in_flit [NumIn];
  logic [NumIn-1:0] req_valid, req_consume, req_cs, req_copy, req_promote, req_tree, req_drop;
  logic [NumIn*PortW-1:0] req_out;
  logic [NumIn*VcW-1:0] req_vc, req_out_vc;
  logic [FlitW-1:0] req_flit [NumIn];
  logic [NumIn*FlitW-1:0] req_flits;
  logic [NumIn*CntW-1:0] req_cnt;
  logic [NumIn-1:0] in_gnt, in_error, in_idle, take, relabel, cs_done;
  logic [NumIn*NumVcs-1:0] pop;

  // Per input, its tree worm: a head at the front for the claim, and what it claimed.
  logic [NumIn-1:0] tree_head, tree_claimed, tree_tail_gone;
  logic [NumIn*FlitW-1:0] tree_flit;
  logic [NumIn*PortW-1:0] tree_out;
  logic [NumIn*NumOut-1:0] tree_outs;
  logic [NumIn*NumPorts-1:0] tree_child, tree_child_route;
  logic [NumIn*NumPorts*CoordW-1:0] tree_child_x, tree_child_y;
  logic [NumOut-1:0] claim_ok;
  logic [InW-1:0] claim_idx;

  // The output unit's answers, and the switch allocation.
  logic [NumPorts*NumVcs-1:0] credit_ok;
  logic [NumOut-1:0] tree_room;
  logic [NumIn*NumPorts*NumVcs-1:0] owner_free, owner_mine;
  logic [NumIn*NumPorts-1:0] alloc_ok;
  logic [NumIn*NumPorts*VcW-1:0] alloc_vc;
  logic [NumOut-1:0] gnt_valid, out_tail;
  logic [NumPorts*2-1:0] em_owner_free, em_owner_mine;
  logic [NumOut*IdxW-1:0] gnt_idx;
  logic credit_error;

  // The barrier emitter's offers per port.
  logic [NumPorts-1:0] offer, offer_gnt;
  logic [NumPorts*FlitW-1:0] offer_flit;
  logic [NumPorts*ClassVcW-1:0] offer_vc;
  logic barrier_error, barrier_idle;

  // ---------------------------------------------------------------------------------------
  // Input units (contract steps 3 and 4)
  // ---------------------------------------------------------------------------------------
  // The barrier unit serves the five ports (injection channels 1-3 carry no sync message).
  logic [NumPorts-1:0] unit_take, unit_relabel, unit_cs_done;
  assign take = NumIn'(unit_take);
  assign relabel = NumIn'(unit_relabel);
  assign cs_done = NumIn'(unit_cs_done);

  for (genvar i = 0; i < NumIn; i++) begin : gen_input
    logic [GidW-1:0] fresh_gid;
    logic [RegSlots-1:0] cam_hit;
    // The outputs its tree worm claimed; its VCs' pops and full flags.
    logic [NumOut-1:0] outs;
    logic [NumVcs-1:0] in_pop, full;
    assign in_flit[i] = in_flit_i[i*FlitW +: FlitW];
    assign outs = tree_outs[i*NumOut +: NumOut];

    // The CAM lookup of the sync message that arrived this cycle, in the registers as
    // they are at its start.
    meshsync_group_cam #(.NumRegs (RegSlots)) u_cam (
      .valid_i (reg_valid),
      .gid_i   (reg_gid),
      .key_i   (fresh_gid),
      .hit_o   (cam_hit)
    );

    meshsync_input_port #(
      .FlitW (FlitW), .BufferDepth (WormDepth), .SyncBufferDepth (SyncDepth),
      .TreeBufferDepth (TreeDepth), .PathWorms (PathWorms != 0), .Trn (Trn), .Trm (Trm),
      .CntW (CntW), .HasRegs (NumRegs > 0), .Injection (i == 0 || i >= NumPorts),
      .UnicastVcs (Lanes), .HeadStages (HeadStages)
    ) u_input (
      .clk_i (clk_i), .rst_ni (rst_ni), .here_x_i (here_x), .here_y_i (here_y),
      // The flit presented, and its arrival's CAM lookup.
      .in_valid_i (in_valid_i[i]), .in_vc_i (in_vc_i[i*VcW +: VcW]), .in_flit_i (in_flit[i]),
      .fresh_gid_o (fresh_gid), .cam_hit_i (|cam_hit), .cam_member_i (|(cam_hit & reg_member)),
      .cam_transit_i (|(cam_hit & reg_transit)),
      // Its view of the outputs: credits, and VC owners.
      .credit_ok_i (credit_ok),
      .owner_free_i (owner_free[i*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .owner_mine_i (owner_mine[i*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .alloc_ok_i (alloc_ok[i*NumPorts +: NumPorts]),
      .alloc_vc_i (alloc_vc[i*NumPorts*VcW +: NumPorts*VcW]),
      // Its tree worm: the head for the claim, and what it claimed (the claimed links:
      // bit 0 unused, the NI output needs no credit).
      .tree_head_o (tree_head[i]), .tree_flit_o (tree_flit[i*FlitW +: FlitW]),
      .tree_out_o (tree_out[i*PortW +: PortW]), .tree_claimed_i (tree_claimed[i]),
      .tree_links_i ({outs[NumPorts-1:1], 1'b0}), .tree_drop_i (outs == '0),
      // Its request, and the answers.
      .req_valid_o (req_valid[i]), .req_consume_o (req_consume[i]), .req_cs_o (req_cs[i]),
      .req_out_o (req_out[i*PortW +: PortW]), .req_copy_o (req_copy[i]),
      .req_promote_o (req_promote[i]), .req_tree_o (req_tree[i]), .req_drop_o (req_drop[i]),
      .req_vc_o (req_vc[i*VcW +: VcW]), .req_out_vc_o (req_out_vc[i*VcW +: VcW]),
      .req_flit_o (req_flit[i]),
      .req_cnt_o (req_cnt[i*CntW +: CntW]),
      .gnt_i (in_gnt[i]), .relabel_i (relabel[i]), .cs_done_i (cs_done[i]),
      .pop_o (in_pop), .full_o (full), .idle_o (in_idle[i]), .error_o (in_error[i])
    );
    assign req_flits[i*FlitW +: FlitW] = req_flit[i];
    assign pop[i*NumVcs +: NumVcs] = in_pop;

    // Injection channel 0 is the Local input, channel ch > 0 input 4 + ch: what fits in
    // its buffers, and what left them.
    if (i == 0 || i >= NumPorts) begin : gen_channel
      localparam int unsigned Ch = (i == 0) ? 0 : i - NumPorts + 1;
      assign local_ready_o[Ch*NumVcs +: NumVcs] = ~full | in_pop;
      assign inj_pop_o[Ch*NumVcs +: NumVcs] = in_pop;
    end else begin : gen_link
      // A link input's full flags are the upstream's business (credits).
      logic unused_full;
      assign unused_full = ^full;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Barrier unit, register file and emitter (contract steps 5 and 6)
  // ---------------------------------------------------------------------------------------
  // The software port's request as the register file takes it (declared out here: Yosys
  // 0.23 cannot size a struct declared inside a generate block).
  meshsync_pkg::reg_req_t reg_req;
  always_comb begin
    reg_req = '0;
    reg_req.op = reg_op_i;
    reg_req.gid = reg_gid_i;
    reg_req.transit = reg_transit_i;
    reg_req.parent_valid = reg_parent_valid_i;
    reg_req.parent_x = CoordW'(reg_parent_x_i);
    reg_req.parent_y = CoordW'(reg_parent_y_i);
    reg_req.route = reg_route_i;
    reg_req.slot = reg_slot_i;
    reg_req.num_children = meshsync_pkg::ChildCountW'(reg_num_children_i);
  end

  // The barrier unit and emitter see the five VC classes (ClassVcW bits, the credits of VCs
  // 0-4): they take and send sync messages on VCs 1 and 2 only. A unicast VC past the
  // classes reaches the unit as VC 0 (a worm: never its message).
  logic [NumPorts*ClassVcW-1:0] unit_vc;
  logic [NumPorts*ClassVcs-1:0] class_credit_ok;
  for (genvar p = 0; p < NumPorts; p++) begin : gen_class_view
    logic [VcW-1:0] vc;
    assign vc = req_vc[p*VcW +: VcW];
    assign unit_vc[p*ClassVcW +: ClassVcW] = (Lanes == 1 || 32'(vc) < ClassVcs) ? ClassVcW'(vc) : ClassVcW'(meshsync_pkg::VcWorm);
    assign class_credit_ok[p*ClassVcs +: ClassVcs] = credit_ok[p*NumVcs +: ClassVcs];
  end

  meshsync_barrier #(
    .FlitW (FlitW), .NumRegs (NumRegs), .MaxChildren (MaxChildren), .CoordXW (CoordXW),
    .CoordYW (CoordYW), .NumChildrenW (NumChildrenW), .ArrivedW (ArrivedW), .CntW (CntW),
    .ReduceWords (ReduceWords), .PathRefsW (PathRefsW)
  ) u_barrier (
    .clk_i (clk_i), .rst_ni (rst_ni), .here_x_i (my_x_q), .here_y_i (my_y_q),
    // The five ports' requests for the unit, and its answers.
    .consume_i (req_valid[NumPorts-1:0] & req_consume[NumPorts-1:0]),
    .cs_i (req_cs[NumPorts-1:0]), .flit_i (req_flits[NumPorts*FlitW-1:0]),
    .vc_i (unit_vc), .cnt_i (req_cnt[NumPorts*CntW-1:0]),
    .take_o (unit_take), .relabel_o (unit_relabel), .cs_done_o (unit_cs_done),
    // The software port, and the register file's state.
    .reg_req_i (reg_req), .reg_child_x_i (reg_child_x_i), .reg_child_y_i (reg_child_y_i),
    .reg_child_route_i (reg_child_route_i), .reg_ok_o (reg_ok_o),
    .reg_valid_o (reg_valid), .reg_member_o (reg_member), .reg_transit_o (reg_transit),
    .reg_gid_o (reg_gid), .reg_num_children_o (reg_num_children),
    .reg_child_x_o (reg_child_x), .reg_child_y_o (reg_child_y),
    .reg_child_route_o (reg_child_route),
    // The emitter's offers.
    .credit_ok_i (class_credit_ok), .owner_free_i (em_owner_free), .owner_mine_i (em_owner_mine),
    .offer_o (offer), .offer_flit_o (offer_flit), .offer_vc_o (offer_vc),
    .offer_gnt_i (offer_gnt),
    .idle_o (barrier_idle), .error_o (barrier_error)
  );

  // ---------------------------------------------------------------------------------------
  // Tree claim (docs/tree-multicast.md)
  // ---------------------------------------------------------------------------------------
  meshsync_tree_claim #(
    .FlitW (FlitW), .NumIn (NumIn), .NumOut (NumOut), .NiPorts (NiPorts), .NumRegs (RegSlots),
    .MaxChildren (MaxChildren), .CoordXW (CoordXW), .CoordYW (CoordYW),
    .NumChildrenW (NumChildrenW), .InW (InW)
  ) u_tree_claim (
    .clk_i (clk_i), .rst_ni (rst_ni), .here_x_i (here_x), .here_y_i (here_y),
    .head_i (tree_head), .head_flit_i (tree_flit), .head_out_i (tree_out),
    .reg_valid_i (reg_valid), .reg_member_i (reg_member), .reg_gid_i (reg_gid),
    .reg_num_children_i (reg_num_children), .reg_child_x_i (reg_child_x),
    .reg_child_y_i (reg_child_y), .reg_child_route_i (reg_child_route),
    .room_i (tree_room), .tail_gone_i (tree_tail_gone),
    .claim_ok_o (claim_ok), .claim_idx_o (claim_idx),
    .claimed_o (tree_claimed), .outs_o (tree_outs), .child_o (tree_child),
    .child_x_o (tree_child_x), .child_y_o (tree_child_y), .child_route_o (tree_child_route)
  );

  // ---------------------------------------------------------------------------------------
  // Switch allocation and crossbar (contract step 7)
  // ---------------------------------------------------------------------------------------
  meshsync_switch_allocator #(
    .NumIn (NumIn), .NumOut (NumOut), .NiPorts (NiPorts), .HasEmitter (NumRegs > 0),
    .IdxW (IdxW), .NumVcs (NumVcs)
  ) u_switch (
    .clk_i (clk_i), .rst_ni (rst_ni),
    .req_valid_i (req_valid), .req_consume_i (req_consume), .req_out_i (req_out),
    .req_copy_i (req_copy), .req_tree_i (req_tree), .req_drop_i (req_drop),
    .tree_outs_i (tree_outs), .take_i (take), .offer_i (offer),
    .gnt_valid_o (gnt_valid), .gnt_idx_o (gnt_idx), .in_gnt_o (in_gnt),
    .offer_gnt_o (offer_gnt), .pop_i (pop)
  );

  meshsync_crossbar #(
    .FlitW (FlitW), .NumIn (NumIn), .NumOut (NumOut), .HasEmitter (NumRegs > 0), .IdxW (IdxW),
    .VcW (VcW)
  ) u_crossbar (
    .in_flit_i (req_flits), .in_vc_i (req_out_vc), .in_promote_i (req_promote),
    .in_tree_i (req_tree), .in_child_i (tree_child), .in_child_x_i (tree_child_x),
    .in_child_y_i (tree_child_y), .in_child_route_i (tree_child_route),
    .em_flit_i (offer_flit), .em_vc_i (offer_vc),
    .gnt_valid_i (gnt_valid), .gnt_idx_i (gnt_idx),
    .out_valid_o (out_valid_o), .out_vc_o (out_vc_o), .out_flit_o (out_flit_o)
  );

  // ---------------------------------------------------------------------------------------
  // The flit fields the router reads: a tree worm's tail leaving its input (its claim
  // ends), each output's tail (the VC's owner lets go), and a sync head on an injection
  // channel 1-3. One struct temp at module level: Yosys 0.23 cannot size a struct declared
  // inside a generate block.
  // ---------------------------------------------------------------------------------------
  meshsync_pkg::flit_t peek;
  logic chan_error;
  always_comb begin
    peek = '0;
    for (int i = 0; i < NumIn; i++) begin
      peek = req_flit[i];
      tree_tail_gone[i] = in_gnt[i] && req_tree[i] && peek.tail;
    end
    for (int o = 0; o < NumOut; o++) begin
      peek = out_flit_o[o*FlitW +: FlitW];
      out_tail[o] = peek.tail;
    end
    // Injection channels 1-3 carry worms only: a sync message there has no barrier unit
    // path (the model's NI never sends one there).
    chan_error = 1'b0;
    for (int i = NumPorts; i < NumIn; i++) begin
      peek = in_flit[i];
      if (in_valid_i[i] && peek.head && peek.f.hdr.sync) chan_error = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Output unit: what leaving flits change in credits and VC owners
  // ---------------------------------------------------------------------------------------
  meshsync_output_unit #(
    .NumIn (NumIn), .NumOut (NumOut), .NiPorts (NiPorts), .BufferDepth (WormDepth),
    .SyncBufferDepth (SyncDepth), .TreeBufferDepth (TreeDepth), .PathWorms (PathWorms != 0),
    .IdxW (IdxW), .InW (InW), .UnicastVcs (Lanes), .VcAllocation (VcAllocation)
  ) u_output (
    .clk_i (clk_i), .rst_ni (rst_ni), .credit_in_i (credit_in_i),
    .out_valid_i (out_valid_o), .out_vc_i (out_vc_o), .out_tail_i (out_tail),
    .out_idx_i (gnt_idx), .claim_ok_i (claim_ok), .claim_idx_i (claim_idx),
    .credit_ok_o (credit_ok), .tree_room_o (tree_room),
    .in_owner_free_o (owner_free), .in_owner_mine_o (owner_mine),
    .in_alloc_ok_o (alloc_ok), .in_alloc_vc_o (alloc_vc),
    .em_owner_free_o (em_owner_free), .em_owner_mine_o (em_owner_mine),
    .error_o (credit_error)
  );

  // ---------------------------------------------------------------------------------------
  // Credits back upstream, errors, idle
  // ---------------------------------------------------------------------------------------
  assign credit_out_o = {pop[NumPorts*NumVcs-1:NumVcs], {NumVcs{1'b0}}};
  assign error_o = (|in_error) || credit_error || barrier_error || chan_error;
  assign idle_o = (&in_idle) && barrier_idle;

  // Input 5-7 requests never reach the barrier unit.
  logic unused_ports;
  assign unused_ports = ^{req_cs, req_cnt};
  if (NumIn > NumPorts) begin : gen_unused_channel_vc
    logic unused_channel_vc;
    assign unused_channel_vc = ^req_vc[NumIn*VcW-1:NumPorts*VcW];
  end

  // ---------------------------------------------------------------------------------------
  // Cover points (scripts/coverage, docs/verification.md "Coverage"): each kind of flit
  // into each input and out of each output (meshsync_pkg::flit_kind), and the error
  // raised on a sync message on an injection channel 1-3. The injection channels and
  // ejection outputs of an all-port NI carry worms only: their worm kinds are counted.
  // ---------------------------------------------------------------------------------------
  for (genvar i = 0; i < NumIn; i++) begin : gen_cover_in
    logic [3:0] kind;
    assign kind = meshsync_pkg::flit_kind(in_flit[i]);
    `COVER(InUnicast_C, in_valid_i[i] && kind == meshsync_pkg::KindUnicast)
    if (PathWorms != 0) begin : gen_path
      `COVER(InPath_C, in_valid_i[i] && kind == meshsync_pkg::KindPath)
    end
    `COVER(InBody_C, in_valid_i[i] && kind == meshsync_pkg::KindBody)
    `COVER(InTail_C, in_valid_i[i] && kind == meshsync_pkg::KindTail)
    if (i < NumPorts) begin : gen_port
      if (TreeBufferDepth > 0) begin : gen_tree
        `COVER(InTree_C, in_valid_i[i] && kind == meshsync_pkg::KindTree)
      end
      `COVER(InArrive_C, in_valid_i[i] && kind == meshsync_pkg::KindArrive)
      `COVER(InRelease_C, in_valid_i[i] && kind == meshsync_pkg::KindRelease)
      `COVER(InSetup_C, in_valid_i[i] && kind == meshsync_pkg::KindSetup)
      `COVER(InTeardown_C, in_valid_i[i] && kind == meshsync_pkg::KindTeardown)
    end
  end
  for (genvar o = 0; o < NumOut; o++) begin : gen_cover_out
    logic [3:0] kind;
    assign kind = meshsync_pkg::flit_kind(out_flit_o[o*FlitW +: FlitW]);
    `COVER(OutUnicast_C, out_valid_o[o] && kind == meshsync_pkg::KindUnicast)
    if (PathWorms != 0) begin : gen_path
      `COVER(OutPath_C, out_valid_o[o] && kind == meshsync_pkg::KindPath)
    end
    `COVER(OutBody_C, out_valid_o[o] && kind == meshsync_pkg::KindBody)
    `COVER(OutTail_C, out_valid_o[o] && kind == meshsync_pkg::KindTail)
    if (o < NumPorts) begin : gen_port
      if (TreeBufferDepth > 0) begin : gen_tree
        `COVER(OutTree_C, out_valid_o[o] && kind == meshsync_pkg::KindTree)
      end
      `COVER(OutArrive_C, out_valid_o[o] && kind == meshsync_pkg::KindArrive)
      `COVER(OutRelease_C, out_valid_o[o] && kind == meshsync_pkg::KindRelease)
      `COVER(OutSetup_C, out_valid_o[o] && kind == meshsync_pkg::KindSetup)
      `COVER(OutTeardown_C, out_valid_o[o] && kind == meshsync_pkg::KindTeardown)
    end
  end
  if (NumIn > NumPorts) begin : gen_cover_channel_error
    `COVER(SyncOnChannelError_C, chan_error)
  end

`ifdef MESHSYNC_FORMAL_ROUTER
  `include "router.svh"  // the whole router's bounded check (tb/formal, scripts/formal)
`endif

endmodule

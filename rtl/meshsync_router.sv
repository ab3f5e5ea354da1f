// meshsync router: five ports (Local, +X, -X, +Y, -Y), five VCs per port (NumVcs), a one-port or
// all-port network interface (NiPorts), credit flow control, dimension-order routing (XY for worms, XY or YX for sync messages), snake
// routing and absorb-and-forward for multidestination worms, and the barrier unit with
// its register file. Cycle for cycle the C++ RouterCore
// (model/core/router_core.cpp); the contract is docs/microarchitecture.md, the module map
// docs/rtl.md.
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
module meshsync_router #(
  /// Mesh width (columns); sets the x coordinate width.
  parameter int unsigned MeshW = 8,
  /// Mesh height (rows); sets the y coordinate width.
  parameter int unsigned MeshH = 8,
  /// Flit width: the contract's 32-bit format (head, tail, sync, R, type, gid, data, dest).
  parameter int unsigned FlitW = 32,
  /// Worm VC (VC 0 and VC 3) input buffer depth, and the credits of each output's VC 0 and 3.
  parameter int unsigned BufferDepth = 16,
  /// Depth of each sync VC input buffer (VC 1, VC 2), and their credits.
  parameter int unsigned SyncBufferDepth = 4,
  /// Depth of the tree VC input buffer (VC 4), and its credits: the longest tree worm.
  parameter int unsigned TreeBufferDepth = 66,
  /// Barrier registers (CAM entries); 0, 4 and 16 are the measured points.
  parameter int unsigned NumRegs = 4,
  /// Children one barrier register holds (BTM needs 4).
  parameter int unsigned MaxChildren = 8,
  /// Router delay when a router only forwards (cycles, >= 1): ready = arrival + Trn - 1.
  parameter int unsigned Trn = 5,
  /// Router delay when a sync message is processed (cycles, >= 1).
  parameter int unsigned Trm = 30,
  /// NI channels: 1 (one-port) or 4 (all-port: injection channels 1-3 enter on inputs
  /// 5-7, and each link input p ejects on its own output 4+p; docs/microarchitecture.md).
  parameter int unsigned NiPorts = 1,
  /// Inputs: the five ports, then injection channels 1..NiPorts-1 (derived; do not set).
  parameter int unsigned NumIn = meshsync_pkg::NumPorts + NiPorts - 1,
  /// Outputs: the five ports, then all-port ejection outputs (derived; do not set).
  parameter int unsigned NumOut = (NiPorts > 1) ? meshsync_pkg::NumPorts + 4 : meshsync_pkg::NumPorts,
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
  input  logic [NumIn*meshsync_pkg::VcW-1:0]                     in_vc_i,
  input  logic [NumIn*FlitW-1:0]                                 in_flit_i,
  output logic [NiPorts*meshsync_pkg::NumVcs-1:0]                local_ready_o,
  // Per injection channel ch and VC v (bit ch*NumVcs+v): a flit left that channel's input
  // buffer in this cycle (combinational, like credit_out_o): which of its flits the NI
  // has handed on, where local_ready_o says only that one more fits.
  output logic [NiPorts*meshsync_pkg::NumVcs-1:0]                inj_pop_o,
  // Output side: Local, +X, -X, +Y, -Y, then (all-port) the ejection outputs of inputs
  // +X, -X, +Y, -Y.
  output logic [NumOut-1:0]                                      out_valid_o,
  output logic [NumOut*meshsync_pkg::VcW-1:0]                    out_vc_o,
  output logic [NumOut*FlitW-1:0]                                out_flit_o,
  // Credits, bit p*NumVcs+v. The Local bits of credit_out_o are 0 and of credit_in_i unused.
  output logic [meshsync_pkg::NumPorts*meshsync_pkg::NumVcs-1:0] credit_out_o,
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::NumVcs-1:0] credit_in_i,
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
  // No flit in any input buffer (any port, any VC) and no message waiting in any barrier
  // register's outbox or in the fallback FIFO. Combinational on the state at the start
  // of the cycle only (not on this cycle's inputs): one NOR over the buffers' and the
  // outboxes' occupancy bits. While idle_o = 1 and no input is presented (in_valid_i,
  // credit_in_i and reg_op_i all 0), a clock edge moves no flit and changes no state, so
  // the mesh co-simulation may skip clocking the router; in hardware it is the natural
  // enable of a clock gate (woken by any of those inputs).
  output logic                                                   idle_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned NumVcs = meshsync_pkg::NumVcs;
  localparam int unsigned VcW = meshsync_pkg::VcW;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  // Output requesters: the inputs, then the barrier emitter (with registers).
  localparam int unsigned NumReq = NumIn + ((NumRegs > 0) ? 1 : 0);
  localparam int unsigned IdxW = $clog2(NumReq);
  localparam int unsigned RegSlots = (NumRegs > 0) ? NumRegs : 1;
  localparam int unsigned ArrivedW = $clog2(MaxChildren + 1);
  localparam int unsigned MaxDelay = (Trm > Trn) ? Trm : Trn;
  localparam int unsigned CntW = (MaxDelay > 1) ? $clog2(MaxDelay) : 1;
  // At most one CS path per other node crosses a router.
  localparam int unsigned PathRefsW = $clog2(MeshW * MeshH);
  // Signed loop bounds: no constant-comparison warning when there are no registers.
  localparam int NumRegsI = NumRegs;
  localparam int MaxChildrenI = MaxChildren;

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

  // The output that takes input i's flits for the NI: Local, or in an all-port router a
  // link input's own ejection output.
  function automatic int unsigned eject_of(int unsigned i);
    eject_of = (NiPorts > 1 && i >= 1 && i < NumPorts) ? NumPorts + i - 1 : 0;
  endfunction

  // ---------------------------------------------------------------------------------------
  // Credit counters and worm VC owners of the outputs
  // ---------------------------------------------------------------------------------------
  logic [NumPorts*NumVcs-1:0] credit_ok, credit_empty, send;
  logic [NumPorts-1:0] credit_error;
  // Per output o and worm VC (index o*3: VC 0, o*3+1: VC 3, o*3+2: VC 4): held by an
  // input, which.
  logic [NumOut*3-1:0] owner_valid_q, owner_valid_d;
  logic [NumOut*3*PortW-1:0] owner_q, owner_d;

  // The NI always accepts: Local has no counters.
  assign credit_ok[NumVcs-1:0] = '1;
  assign credit_empty[NumVcs-1:0] = '1;
  assign credit_error[0] = 1'b0;
  for (genvar o = 1; o < NumPorts; o++) begin : gen_credits
    meshsync_credit_counters #(
      .BufferDepth     (BufferDepth),
      .SyncBufferDepth (SyncBufferDepth),
      .TreeBufferDepth (TreeBufferDepth)
    ) u_credits (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .credit_in_i (credit_in_i[o*NumVcs +: NumVcs]),
      .send_i      (send[o*NumVcs +: NumVcs]),
      .credit_ok_o (credit_ok[o*NumVcs +: NumVcs]),
      .empty_o     (credit_empty[o*NumVcs +: NumVcs]),
      .error_o     (credit_error[o])
    );
  end

  // ---------------------------------------------------------------------------------------
  // Register file state for the arrivals' CAM lookup (tied off without registers)
  // ---------------------------------------------------------------------------------------
  logic [RegSlots-1:0] cam_valid, cam_member, cam_transit;
  logic [RegSlots*GidW-1:0] cam_gid;
  // The registers' children, for a tree head's claim.
  logic [RegSlots*NumChildrenW-1:0] cam_num_children;
  logic [RegSlots*MaxChildren*CoordXW-1:0] cam_child_x;
  logic [RegSlots*MaxChildren*CoordYW-1:0] cam_child_y;
  logic [RegSlots*MaxChildren-1:0] cam_child_route;

  // Per input, the tree worm passing now (docs/tree-multicast.md): claimed, its outputs,
  // the links whose copy is readdressed to a child, and each such link's child and route.
  logic [NumIn-1:0] tree_head, tclaimed_q, tclaimed_d, tclaimed_eff;
  logic [NumIn*FlitW-1:0] tree_flit;
  logic [NumIn*PortW-1:0] tree_out;
  logic [NumIn*NumOut-1:0] touts_q, touts_d, touts_eff;
  logic [NumIn*NumPorts-1:0] tchild_q, tchild_d, tchild_eff;
  logic [NumIn*NumPorts*CoordW-1:0] tcx_q, tcx_d, tcx_eff, tcy_q, tcy_d, tcy_eff;
  logic [NumIn*NumPorts-1:0] tcr_q, tcr_d, tcr_eff;

  // ---------------------------------------------------------------------------------------
  // Input ports
  // ---------------------------------------------------------------------------------------
  logic [NumIn-1:0] req_valid, req_consume, req_cs, in_gnt, in_error, in_idle, take, relabel;
  logic [NumIn-1:0] req_copy, req_promote, req_tree, req_drop;
  logic [NumIn-1:0] cs_done;
  logic [NumIn*PortW-1:0] req_out;
  logic [NumIn*VcW-1:0] req_vc;
  logic [NumIn*FlitW-1:0] req_flit;
  logic [NumIn*CntW-1:0] req_cnt;
  logic [NumIn*NumVcs-1:0] pop, full;
  // The barrier unit serves the five ports (injection channels 1-3 carry no sync message).
  logic [NumPorts-1:0] unit_take, unit_relabel, unit_cs_done;
  always_comb begin
    take = '0;
    relabel = '0;
    cs_done = '0;
    take[NumPorts-1:0] = unit_take;
    relabel[NumPorts-1:0] = unit_relabel;
    cs_done[NumPorts-1:0] = unit_cs_done;
  end

  for (genvar i = 0; i < NumIn; i++) begin : gen_input
    logic cam_hit, hit_member, hit_transit;
    logic [GidW-1:0] fresh_gid;
    logic [NumPorts*2-1:0] owner_free, owner_mine;
    logic [NumPorts-1:0] tree_links;

    // CAM lookup of the sync message that arrived this cycle, in the registers as they
    // are at its start (GIDs are unique among valid entries).
    always_comb begin
      cam_hit = 1'b0;
      hit_member = 1'b0;
      hit_transit = 1'b0;
      for (int k = 0; k < NumRegsI; k++) begin
        if (cam_valid[k] &&
            (cam_gid[k*GidW +: GidW] == fresh_gid)) begin
          cam_hit = 1'b1;
          hit_member = cam_member[k];
          hit_transit = cam_transit[k];
        end
      end
    end

    // The input port sees Local as its NI output: Local's owners, or its ejection output's.
    for (genvar k = 0; k < NumPorts*2; k++) begin : gen_owner
      localparam int unsigned O = ((k < 2) ? eject_of(i) : k / 2) * 3 + (k % 2);
      assign owner_free[k] = !owner_valid_q[O];
      assign owner_mine[k] = owner_valid_q[O] && (owner_q[O*PortW +: PortW] == PortW'(i));
    end
    // The claimed links (bit 0: unused; the NI output needs no credit).
    assign tree_links = {touts_eff[i*NumOut + 1 +: NumPorts - 1], 1'b0};

    meshsync_input_port #(
      .FlitW           (FlitW),
      .BufferDepth     (BufferDepth),
      .SyncBufferDepth (SyncBufferDepth),
      .TreeBufferDepth (TreeBufferDepth),
      .Trn             (Trn),
      .Trm             (Trm),
      .CntW            (CntW),
      .HasRegs         (NumRegs > 0),
      .Injection       (i == 0 || i >= NumPorts)
    ) u_input (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .here_x_i      (here_x),
      .here_y_i      (here_y),
      .in_valid_i    (in_valid_i[i]),
      .in_vc_i       (in_vc_i[i*VcW +: VcW]),
      .in_flit_i     (in_flit_i[i*FlitW +: FlitW]),
      .fresh_gid_o   (fresh_gid),
      .cam_hit_i     (cam_hit),
      .cam_member_i  (hit_member),
      .cam_transit_i (hit_transit),
      .credit_ok_i   (credit_ok),
      .owner_free_i  (owner_free),
      .owner_mine_i  (owner_mine),
      .tree_head_o   (tree_head[i]),
      .tree_flit_o   (tree_flit[i*FlitW +: FlitW]),
      .tree_out_o    (tree_out[i*PortW +: PortW]),
      .tree_claimed_i(tclaimed_eff[i]),
      .tree_links_i  (tree_links),
      .tree_drop_i   (touts_eff[i*NumOut +: NumOut] == '0),
      .req_valid_o   (req_valid[i]),
      .req_consume_o (req_consume[i]),
      .req_cs_o      (req_cs[i]),
      .req_out_o     (req_out[i*PortW +: PortW]),
      .req_copy_o    (req_copy[i]),
      .req_promote_o (req_promote[i]),
      .req_tree_o    (req_tree[i]),
      .req_drop_o    (req_drop[i]),
      .req_vc_o      (req_vc[i*VcW +: VcW]),
      .req_flit_o    (req_flit[i*FlitW +: FlitW]),
      .req_cnt_o     (req_cnt[i*CntW +: CntW]),
      .gnt_i         (in_gnt[i]),
      .relabel_i     (relabel[i]),
      .cs_done_i     (cs_done[i]),
      .pop_o         (pop[i*NumVcs +: NumVcs]),
      .full_o        (full[i*NumVcs +: NumVcs]),
      .idle_o        (in_idle[i]),
      .error_o       (in_error[i])
    );
  end

  // ---------------------------------------------------------------------------------------
  // Barrier unit, register file and emitter
  // ---------------------------------------------------------------------------------------
  logic [NumPorts-1:0] offer, offer_gnt;
  logic [NumPorts*FlitW-1:0] offer_flit;
  logic [NumPorts*VcW-1:0] offer_vc;
  logic barrier_error, barrier_idle;

  if (NumRegs > 0) begin : gen_barrier
    logic [NumRegs-1:0] valid, member, transit, parent_valid, route, written;
    logic [NumRegs-1:0] batch_due, batch_release, batch_load, emitting;
    logic [NumRegs*GidW-1:0] gid;
    logic [NumRegs*CoordXW-1:0] parent_x;
    logic [NumRegs*CoordYW-1:0] parent_y;
    logic [NumRegs*meshsync_pkg::DataW-1:0] slot;
    logic [NumRegs*NumChildrenW-1:0] num_children;
    logic [NumRegs*MaxChildren*CoordXW-1:0] child_x;
    logic [NumRegs*MaxChildren*CoordYW-1:0] child_y;
    logic [NumRegs*MaxChildren-1:0] child_route;
    logic [NumRegs*meshsync_pkg::NumSlots-1:0] flags_q, flags_bu;
    logic [NumRegs*ArrivedW-1:0] arrived_q, arrived_bu;
    logic unit_error, unit_idle, regfile_error, emitter_idle, cs_valid, cs_setup;
    logic [GidW-1:0] cs_gid;

    meshsync_barrier_unit #(
      .FlitW        (FlitW),
      .NumRegs      (NumRegs),
      .NumChildrenW (NumChildrenW),
      .ArrivedW     (ArrivedW),
      .CntW         (CntW)
    ) u_unit (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .consume_i       (req_valid[NumPorts-1:0] & req_consume[NumPorts-1:0]),
      .cs_i            (req_cs[NumPorts-1:0]),
      .flit_i          (req_flit[NumPorts*FlitW-1:0]),
      .cnt_i           (req_cnt[NumPorts*CntW-1:0]),
      .take_o          (unit_take),
      .relabel_o       (unit_relabel),
      .cs_done_o       (unit_cs_done),
      .cs_valid_o      (cs_valid),
      .cs_setup_o      (cs_setup),
      .cs_gid_o        (cs_gid),
      .valid_i         (valid),
      .member_i        (member),
      .gid_i           (gid),
      .num_children_i  (num_children),
      .flags_i         (flags_q),
      .arrived_i       (arrived_q),
      .flags_o         (flags_bu),
      .arrived_o       (arrived_bu),
      .batch_due_o     (batch_due),
      .batch_release_o (batch_release),
      .batch_load_i    (batch_load),
      .emitting_i      (emitting),
      .written_i       (written),
      .idle_o          (unit_idle),
      .error_o         (unit_error)
    );

    meshsync_barrier_regfile #(
      .NumRegs      (NumRegs),
      .MaxChildren  (MaxChildren),
      .CoordXW      (CoordXW),
      .CoordYW      (CoordYW),
      .NumChildrenW (NumChildrenW),
      .ArrivedW     (ArrivedW),
      .PathRefsW    (PathRefsW)
    ) u_regfile (
      .clk_i              (clk_i),
      .rst_ni             (rst_ni),
      .flags_i            (flags_bu),
      .arrived_i          (arrived_bu),
      .cs_valid_i         (cs_valid),
      .cs_setup_i         (cs_setup),
      .cs_gid_i           (cs_gid),
      .reg_op_i           (reg_op_i),
      .reg_gid_i          (reg_gid_i),
      .reg_parent_valid_i (reg_parent_valid_i),
      .reg_parent_x_i     (reg_parent_x_i),
      .reg_parent_y_i     (reg_parent_y_i),
      .reg_route_i        (reg_route_i),
      .reg_slot_i         (reg_slot_i),
      .reg_transit_i      (reg_transit_i),
      .reg_num_children_i (reg_num_children_i),
      .reg_child_x_i      (reg_child_x_i),
      .reg_child_y_i      (reg_child_y_i),
      .reg_child_route_i  (reg_child_route_i),
      .reg_ok_o           (reg_ok_o),
      .written_o          (written),
      .valid_o            (valid),
      .member_o           (member),
      .transit_o          (transit),
      .gid_o              (gid),
      .parent_valid_o     (parent_valid),
      .parent_x_o         (parent_x),
      .parent_y_o         (parent_y),
      .route_o            (route),
      .slot_o             (slot),
      .num_children_o     (num_children),
      .child_x_o          (child_x),
      .child_y_o          (child_y),
      .child_route_o      (child_route),
      .flags_o            (flags_q),
      .arrived_o          (arrived_q),
      .error_o            (regfile_error)
    );

    meshsync_barrier_emitter #(
      .FlitW        (FlitW),
      .NumRegs      (NumRegs),
      .MaxChildren  (MaxChildren),
      .CoordXW      (CoordXW),
      .CoordYW      (CoordYW),
      .NumChildrenW (NumChildrenW)
    ) u_emitter (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .here_x_i        (my_x_q),
      .here_y_i        (my_y_q),
      .batch_due_i     (batch_due),
      .batch_release_i (batch_release),
      .batch_load_o    (batch_load),
      .emitting_o      (emitting),
      .gid_i           (gid),
      .parent_valid_i  (parent_valid),
      .parent_x_i      (parent_x),
      .parent_y_i      (parent_y),
      .route_i         (route),
      .slot_i          (slot),
      .num_children_i  (num_children),
      .child_x_i       (child_x),
      .child_y_i       (child_y),
      .child_route_i   (child_route),
      .written_i       (written),
      .credit_ok_i     (credit_ok),
      .offer_o         (offer),
      .offer_flit_o    (offer_flit),
      .offer_vc_o      (offer_vc),
      .grant_i         (offer_gnt),
      .idle_o          (emitter_idle)
    );

    assign cam_valid = valid;
    assign cam_member = member;
    assign cam_transit = transit;
    assign cam_gid = gid;
    assign cam_num_children = num_children;
    assign cam_child_x = child_x;
    assign cam_child_y = child_y;
    assign cam_child_route = child_route;
    assign barrier_error = unit_error || regfile_error;
    assign barrier_idle = unit_idle && emitter_idle;

  end else begin : gen_no_barrier
    // Setup and teardown still end their paths here (taken without effect); nothing else
    // is taken, since no register can be a member.
    assign cam_valid = '0;
    assign cam_member = '0;
    assign cam_transit = '0;
    assign cam_gid = '0;
    assign cam_num_children = '0;
    assign cam_child_x = '0;
    assign cam_child_y = '0;
    assign cam_child_route = '0;
    // The barrier unit's one message per cycle, round robin: here only setup/teardown,
    // at the end of their path (taken) or passing through (seen; no register to update).
    logic [$clog2(NumPorts)-1:0] unit_sel;
    logic unit_valid;
    meshsync_output_arbiter #(
      .NumReq (NumPorts)
    ) u_unit_pick (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_i       (req_valid[NumPorts-1:0] & req_consume[NumPorts-1:0]),
      .keep_i      (1'b1),
      .gnt_valid_o (unit_valid),
      .gnt_idx_o   (unit_sel)
    );
    always_comb begin
      unit_take = '0;
      unit_cs_done = '0;
      if (unit_valid) begin
        unit_take[unit_sel] = !req_cs[unit_sel];
        unit_cs_done[unit_sel] = req_cs[unit_sel];
      end
    end
    assign unit_relabel = '0;
    assign offer = '0;
    assign offer_flit = '0;
    assign offer_vc = '0;
    assign reg_ok_o = 1'b0;
    assign barrier_error = 1'b0;
    assign barrier_idle = 1'b1;
    logic unused_barrier;
    assign unused_barrier = ^{offer, offer_gnt, req_cnt, reg_op_i, reg_gid_i,
                              reg_parent_valid_i, reg_parent_x_i, reg_parent_y_i, reg_route_i,
                              reg_slot_i, reg_transit_i, reg_num_children_i, reg_child_x_i,
                              reg_child_y_i, reg_child_route_i};
  end

  // ---------------------------------------------------------------------------------------
  // Tree worms: one head a cycle claims its outputs (docs/tree-multicast.md)
  // ---------------------------------------------------------------------------------------
  // The claimant: round robin over the inputs whose tree head is at the front, ready and
  // unclaimed, from the one after the last claimant.
  localparam int unsigned InW = (NumIn > 1) ? $clog2(NumIn) : 1;
  localparam int unsigned OutW = $clog2(NumOut);
  logic claim_valid;
  logic [InW-1:0] claim_idx, claim_rr_q, claim_rr_next;
  meshsync_rr_pick #(
    .N    (NumIn),
    .IdxW (InW)
  ) u_claim_pick (
    .req_i   (tree_head & ~tclaimed_q),
    .start_i (claim_rr_q),
    .valid_o (claim_valid),
    .idx_o   (claim_idx),
    .next_o  (claim_rr_next)
  );
  always_ff @(posedge clk_i) begin
    if (!rst_ni) claim_rr_q <= '0;
    else if (claim_valid) claim_rr_q <= claim_rr_next;
  end

  logic [FlitW-1:0] claim_flit;
  logic [PortW-1:0] claim_out;
  logic [GidW-1:0] claim_gid;
  logic claim_hit;
  logic [NumChildrenW-1:0] claim_n;
  logic [MaxChildren*CoordW-1:0] claim_cx, claim_cy;
  logic [MaxChildren-1:0] claim_cr;
  logic [MaxChildren*PortW-1:0] claim_cport;
  logic [NumOut-1:0] claim_want, claim_ok;
  logic [NumPorts-1:0] claim_child;
  logic [NumPorts*CoordW-1:0] claim_px, claim_py;
  logic [NumPorts-1:0] claim_pr;
  // The claimant's NI output: Local, or (all-port) its link's ejection output 5-8.
  logic [OutW-1:0] claim_eject;

  always_comb begin
    claim_flit = '0;
    claim_out = '0;
    claim_eject = '0;
    for (int i = 0; i < NumIn; i++) begin
      if (claim_idx == InW'(i)) begin
        claim_flit = tree_flit[i*FlitW +: FlitW];
        claim_out = tree_out[i*PortW +: PortW];
        claim_eject = OutW'(eject_of(i));
      end
    end
  end
  assign claim_gid = claim_flit[meshsync_pkg::TreeGidLsb +: GidW];
  // The claim reads the group; the route and destination were read at arrival.
  logic unused_claim;
  assign unused_claim = ^{claim_flit[FlitW-1:meshsync_pkg::TreeGidLsb + GidW],
                          claim_flit[meshsync_pkg::TreeGidLsb-1:0]};

  // The CAM, looked up with the registers as they are at the start of the cycle: a member
  // register of the group gives its children.
  always_comb begin
    claim_hit = 1'b0;
    claim_n = '0;
    claim_cx = '0;
    claim_cy = '0;
    claim_cr = '0;
    for (int k = 0; k < NumRegsI; k++) begin
      if (cam_valid[k] && cam_member[k] && (cam_gid[k*GidW +: GidW] == claim_gid)) begin
        claim_hit = 1'b1;
        claim_n = cam_num_children[k*NumChildrenW +: NumChildrenW];
        for (int j = 0; j < MaxChildrenI; j++) begin
          claim_cx[j*CoordW +: CoordW] = CoordW'(cam_child_x[(k*MaxChildren + j)*CoordXW +: CoordXW]);
          claim_cy[j*CoordW +: CoordW] = CoordW'(cam_child_y[(k*MaxChildren + j)*CoordYW +: CoordYW]);
          claim_cr[j] = cam_child_route[k*MaxChildren + j];
        end
      end
    end
  end

  // Each child's first hop from here, by its route.
  for (genvar j = 0; j < MaxChildren; j++) begin : gen_child_port
    meshsync_route u_child_route (
      .here_x_i (here_x),
      .here_y_i (here_y),
      .dest_x_i (claim_cx[j*CoordW +: CoordW]),
      .dest_y_i (claim_cy[j*CoordW +: CoordW]),
      .yx_i     (claim_cr[j]),
      .port_o   (claim_cport[j*PortW +: PortW])
    );
  end

  // What the claimant wants: its routed port in transit; here, the NI and every child's
  // first hop (a later child behind the same port replaces an earlier one, as in the
  // model). It gets each output whose tree VC is free and whose buffer behind is empty.
  always_comb begin
    claim_want = '0;
    claim_child = '0;
    claim_px = '0;
    claim_py = '0;
    claim_pr = '0;
    if (claim_out != meshsync_pkg::PortLocal) begin
      for (int o = 1; o < NumPorts; o++) begin
        if (claim_out == PortW'(o)) claim_want[o] = 1'b1;
      end
    end else begin
      for (int o = 0; o < NumOut; o++) begin
        if (claim_eject == OutW'(o)) claim_want[o] = 1'b1;
      end
      if (claim_hit) begin
        for (int j = 0; j < MaxChildrenI; j++) begin
          if (NumChildrenW'(j) < claim_n) begin
            for (int o = 1; o < NumPorts; o++) begin
              if (claim_cport[j*PortW +: PortW] == PortW'(o)) begin
                claim_want[o] = 1'b1;
                claim_child[o] = 1'b1;
                claim_px[o*CoordW +: CoordW] = claim_cx[j*CoordW +: CoordW];
                claim_py[o*CoordW +: CoordW] = claim_cy[j*CoordW +: CoordW];
                claim_pr[o] = claim_cr[j];
              end
            end
          end
        end
      end
    end
    for (int o = 0; o < NumOut; o++) begin
      claim_ok[o] = claim_valid && claim_want[o] && !owner_valid_q[o*3 + 2] &&
                    ((o == 0) || (o >= NumPorts) || credit_empty[(o % NumPorts)*NumVcs + 4]);
    end
  end

  // The state of the worms passing: this cycle's claim included (the claimant may send at
  // once), and a tail leaving clears its input's.
  always_comb begin
    tclaimed_eff = tclaimed_q;
    touts_eff = touts_q;
    tchild_eff = tchild_q;
    tcx_eff = tcx_q;
    tcy_eff = tcy_q;
    tcr_eff = tcr_q;
    for (int i = 0; i < NumIn; i++) begin
      if (claim_valid && (claim_idx == InW'(i))) begin
        tclaimed_eff[i] = 1'b1;
        touts_eff[i*NumOut +: NumOut] = claim_ok;
        tchild_eff[i*NumPorts +: NumPorts] = claim_child;
        tcx_eff[i*NumPorts*CoordW +: NumPorts*CoordW] = claim_px;
        tcy_eff[i*NumPorts*CoordW +: NumPorts*CoordW] = claim_py;
        tcr_eff[i*NumPorts +: NumPorts] = claim_pr;
      end
    end
  end

  always_comb begin
    tclaimed_d = tclaimed_eff;
    touts_d = touts_eff;
    tchild_d = tchild_eff;
    tcx_d = tcx_eff;
    tcy_d = tcy_eff;
    tcr_d = tcr_eff;
    for (int i = 0; i < NumIn; i++) begin
      if (in_gnt[i] && req_tree[i] && req_flit[i*FlitW + FlitW - 2]) begin
        tclaimed_d[i] = 1'b0;
        touts_d[i*NumOut +: NumOut] = '0;
        tchild_d[i*NumPorts +: NumPorts] = '0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tclaimed_q <= '0;
      touts_q <= '0;
      tchild_q <= '0;
      tcx_q <= '0;
      tcy_q <= '0;
      tcr_q <= '0;
    end else begin
      tclaimed_q <= tclaimed_d;
      touts_q <= touts_d;
      tchild_q <= tchild_d;
      tcx_q <= tcx_d;
      tcy_q <= tcy_d;
      tcr_q <= tcr_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Output arbitration, crossbar
  // ---------------------------------------------------------------------------------------
  // The four links are arbitrated first. A flit absorbed and forwarded (req_copy) then
  // asks for its NI output (Local, or its input's ejection output) only if it won its
  // link, and leaves only if it wins that too: a link it won alone stays idle and keeps
  // its pointer (contract step 7). An ejection output has one requester, its input, which
  // wins it whenever it asks.
  // A grant to the emitter (requester NumIn), not to an input.
  function automatic logic by_emitter(logic [IdxW-1:0] idx);
    by_emitter = (NumRegs > 0) && (idx == IdxW'(NumIn));
  endfunction

  logic [NumOut-1:0] gnt_valid, gnt_keep, gnt_used;
  logic [NumOut*IdxW-1:0] gnt_idx;
  // The links' grants (outputs 1-4) and Local's, kept apart: the NI outputs' requests
  // depend on the links' grants.
  logic [NumPorts-1:1] link_valid;
  logic [NumPorts*IdxW-1:IdxW] link_idx;
  logic local_valid;
  logic [IdxW-1:0] local_idx;
  logic [NumIn-1:0] won_link;  // per input: its request's link granted to it
  logic [NumIn-1:0] won_links; // per input: every link its tree flit claimed granted to it
  logic [NumIn-1:0] tree_ni;   // per input: its tree flit claimed its NI output
  logic [NumIn-1:0] ni_req;    // per input: it asks for its NI output
  logic [NumIn-1:0] ni_won;    // per input: its NI output granted to it

  for (genvar o = 1; o < NumPorts; o++) begin : gen_link_output
    logic [NumReq-1:0] req;
    for (genvar i = 0; i < NumIn; i++) begin : gen_req_input
      assign req[i] = req_valid[i] && !req_consume[i] &&
                      (req_tree[i] ? (!req_drop[i] && touts_eff[i*NumOut + o])
                                   : (req_out[i*PortW +: PortW] == PortW'(o)));
    end
    if (NumRegs > 0) begin : gen_req_emitter
      assign req[NumIn] = offer[o];
    end

    meshsync_output_arbiter #(
      .NumReq (NumReq)
    ) u_arbiter (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_i       (req),
      .keep_i      (gnt_keep[o]),
      .gnt_valid_o (link_valid[o]),
      .gnt_idx_o   (link_idx[o*IdxW +: IdxW])
    );
  end

  always_comb begin
    won_link = '0;
    won_links = '1;
    for (int i = 0; i < NumIn; i++) begin
      for (int o = 1; o < NumPorts; o++) begin
        if (link_valid[o] && (link_idx[o*IdxW +: IdxW] == IdxW'(i))) won_link[i] = 1'b1;
        if (touts_eff[i*NumOut + o] && !(link_valid[o] && (link_idx[o*IdxW +: IdxW] == IdxW'(i))))
          won_links[i] = 1'b0;
      end
    end
  end

  for (genvar i = 0; i < NumIn; i++) begin : gen_ni_req
    assign tree_ni[i] = touts_eff[i*NumOut + eject_of(i)];
    assign ni_req[i] = req_valid[i] && !req_consume[i] &&
                       (req_tree[i] ? (!req_drop[i] && tree_ni[i] && won_links[i])
                                    : req_copy[i] ? won_link[i]
                                                  : (req_out[i*PortW +: PortW] == meshsync_pkg::PortLocal));
  end

  if (1) begin : gen_local_output
    logic [NumReq-1:0] req;
    for (genvar i = 0; i < NumIn; i++) begin : gen_req_input
      assign req[i] = ni_req[i] && (eject_of(i) == 0);
    end
    if (NumRegs > 0) begin : gen_req_emitter
      assign req[NumIn] = offer[0];
    end

    meshsync_output_arbiter #(
      .NumReq (NumReq)
    ) u_arbiter (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_i       (req),
      .keep_i      (gnt_keep[0]),
      .gnt_valid_o (local_valid),
      .gnt_idx_o   (local_idx)
    );
  end

  assign gnt_valid[NumPorts-1:0] = {link_valid, local_valid};
  assign gnt_idx[NumPorts*IdxW-1:0] = {link_idx, local_idx};
  // All-port: input p's ejection output (4+p) carries its flits alone.
  for (genvar o = NumPorts; o < NumOut; o++) begin : gen_eject_output
    assign gnt_valid[o] = ni_req[o - NumPorts + 1];
    assign gnt_idx[o*IdxW +: IdxW] = IdxW'(o - NumPorts + 1);
  end

  for (genvar i = 0; i < NumIn; i++) begin : gen_ni_won
    if (eject_of(i) == 0) begin : gen_local
      assign ni_won[i] = local_valid && (local_idx == IdxW'(i));
    end else begin : gen_eject
      assign ni_won[i] = ni_req[i];
    end
  end

  // A link granted to an absorbing flit that lost its NI output is withdrawn.
  always_comb begin
    gnt_keep = '1;
    for (int o = 1; o < NumPorts; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if ((link_idx[o*IdxW +: IdxW] == IdxW'(i)) && req_copy[i] && !ni_won[i]) begin
          gnt_keep[o] = 1'b0;
        end
        // A tree flit leaves only with every output it claimed.
        if ((link_idx[o*IdxW +: IdxW] == IdxW'(i)) && req_tree[i] &&
            !(won_links[i] && (!tree_ni[i] || ni_won[i]))) begin
          gnt_keep[o] = 1'b0;
        end
      end
    end
  end
  assign gnt_used = gnt_valid & gnt_keep;

  // Grants back to the requesters: one pop per input, whatever it sent to.
  always_comb begin
    // A dropped tree worm's flit leaves its input through no output.
    in_gnt = take | (req_valid & req_drop);
    offer_gnt = '0;
    for (int o = 0; o < NumOut; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if (gnt_used[o] && (gnt_idx[o*IdxW +: IdxW] == IdxW'(i))) in_gnt[i] = 1'b1;
      end
    end
    for (int o = 0; o < NumPorts; o++) begin
      if (gnt_used[o] && by_emitter(gnt_idx[o*IdxW +: IdxW])) offer_gnt[o] = 1'b1;
    end
  end

`ifndef SYNTHESIS
  // Assertion: flit conservation. Every input pops at most one flit a cycle, and every
  // flit popped leaves through exactly one output, or through a link and its NI output
  // (absorbed and forwarded), or is taken by the barrier unit.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // Per input: a pop sends its flit to one output, or to a link and its NI output
      // (absorbed and forwarded), or to every output its tree worm claimed, or to none
      // (taken by the barrier unit, or a dropped tree worm's).
      for (int i = 0; i < NumIn; i++) begin
        int outs;
        outs = 0;
        for (int o = 0; o < NumOut; o++) begin
          outs += int'(gnt_used[o] && (gnt_idx[o*IdxW +: IdxW] == IdxW'(i)));
        end
        assert ($countones(pop[i*NumVcs +: NumVcs]) == int'(in_gnt[i]));
        if (!in_gnt[i] || take[i] || req_drop[i]) begin
          assert (outs == 0);
        end else if (req_tree[i]) begin
          assert (outs == $countones(touts_eff[i*NumOut +: NumOut]));
        end else begin
          assert (outs == 1 + int'(req_copy[i]));
        end
      end
    end
  end
`endif

  logic [NumOut*FlitW-1:0] xbar_flit;

  meshsync_crossbar #(
    .FlitW      (FlitW),
    .NumIn      (NumIn),
    .NumOut     (NumOut),
    .HasEmitter (NumRegs > 0),
    .IdxW       (IdxW)
  ) u_crossbar (
    .in_flit_i   (req_flit),
    .in_vc_i     (req_vc),
    .em_flit_i   (offer_flit),
    .em_vc_i     (offer_vc),
    .gnt_valid_i (gnt_used),
    .gnt_idx_i   (gnt_idx),
    .out_valid_o (out_valid_o),
    .out_vc_o    (out_vc_o),
    .out_flit_o  (xbar_flit)
  );

  // The address flit behind an absorbed head leaves on its link as the forwarded worm's
  // head; its copy to the NI stays as it came. A tree head's copy to a child is
  // readdressed to the child, with the child's route.
  always_comb begin
    out_flit_o = xbar_flit;
    for (int o = 1; o < NumPorts; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if ((gnt_idx[o*IdxW +: IdxW] == IdxW'(i)) && req_promote[i]) begin
          out_flit_o[o*FlitW + FlitW - 1] = 1'b1;
        end
        if ((gnt_idx[o*IdxW +: IdxW] == IdxW'(i)) && req_tree[i] && tchild_eff[i*NumPorts + o] &&
            req_flit[i*FlitW + FlitW - 1]) begin
          out_flit_o[o*FlitW + meshsync_pkg::DestXLsb +: CoordW] = tcx_eff[(i*NumPorts + o)*CoordW +: CoordW];
          out_flit_o[o*FlitW + meshsync_pkg::DestYLsb +: CoordW] = tcy_eff[(i*NumPorts + o)*CoordW +: CoordW];
          out_flit_o[o*FlitW + meshsync_pkg::RouteBit] = tcr_eff[i*NumPorts + o];
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // What leaving flits change: credits, worm VC owners
  // ---------------------------------------------------------------------------------------
  always_comb begin
    send = '0;
    owner_valid_d = owner_valid_q;
    owner_d = owner_q;
    // A tree head's claim holds the tree VC of each output it got.
    for (int o = 0; o < NumOut; o++) begin
      if (claim_ok[o]) begin
        owner_valid_d[o*3 + 2] = 1'b1;
        owner_d[(o*3 + 2)*PortW +: PortW] = PortW'(claim_idx);
      end
    end
    for (int o = 0; o < NumOut; o++) begin
      if (out_valid_o[o]) begin
        if (o != 0 && o < NumPorts) begin
          for (int v = 0; v < NumVcs; v++) begin
            if (out_vc_o[o*VcW +: VcW] == VcW'(v)) send[o*NumVcs + v] = 1'b1;
          end
        end
        // A worm that an input wins holds the output's worm VC until its tail.
        if (!by_emitter(gnt_idx[o*IdxW +: IdxW])) begin
          for (int k = 0; k < 3; k++) begin
            if (out_vc_o[o*VcW +: VcW] == ((k == 0) ? meshsync_pkg::VcWorm :
                                           (k == 1) ? meshsync_pkg::VcSnake : meshsync_pkg::VcTree)) begin
              owner_valid_d[o*3 + k] = !out_flit_o[o*FlitW + FlitW - 2];
              owner_d[(o*3 + k)*PortW +: PortW] = PortW'(gnt_idx[o*IdxW +: IdxW]);
            end
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      owner_valid_q <= '0;
      owner_q <= '0;
    end else begin
      owner_valid_q <= owner_valid_d;
      owner_q <= owner_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Credits back upstream, injection channels, errors
  // ---------------------------------------------------------------------------------------
  assign credit_out_o = {pop[NumPorts*NumVcs-1:NumVcs], {NumVcs{1'b0}}};
  // Injection channel 0 is the Local input, channel ch > 0 input 4 + ch.
  for (genvar ch = 0; ch < NiPorts; ch++) begin : gen_local_ready
    localparam int unsigned I = (ch == 0) ? 0 : NumPorts + ch - 1;
    assign local_ready_o[ch*NumVcs +: NumVcs] = ~full[I*NumVcs +: NumVcs] | pop[I*NumVcs +: NumVcs];
    assign inj_pop_o[ch*NumVcs +: NumVcs] = pop[I*NumVcs +: NumVcs];
  end
  // Injection channels 1-3 carry worms only: a sync message there has no barrier unit
  // path (the model's NI never sends one there).
  logic chan_error;
  always_comb begin
    chan_error = 1'b0;
    for (int i = NumPorts; i < NumIn; i++) begin
      if (in_valid_i[i] && in_flit_i[i*FlitW + FlitW - 1] && in_flit_i[i*FlitW + FlitW - 3]) chan_error = 1'b1;
    end
  end
  assign error_o = (|in_error) || (|credit_error) || barrier_error || chan_error;
  assign idle_o = (&in_idle) && barrier_idle;

  // The Local credit bits have no counter; the link inputs' full flags are the
  // upstream's business (credits); input 5-7 requests never reach the barrier unit.
  logic unused_ports;
  assign unused_ports = ^{credit_in_i[NumVcs-1:0], send[NumVcs-1:0],
                          full[NumPorts*NumVcs-1:NumVcs], req_cs, req_cnt};

endmodule

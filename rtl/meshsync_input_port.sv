// One input port: arrival processing (route computation, router delay, CAM decision), the
// VC buffers and the input arbiter. Contract steps 3 and 4.
//
// A unicast worm's head takes a unicast VC at its output (VC allocation, computed per
// output by meshsync_vc_allocator and given here as alloc_*); the flits behind it follow
// on that VC (held_lane_q, per unicast VC of this input). A worm head spends HeadStages
// cycles (the allocation pipeline's routing and VC allocation stages) before its Trn:
// from its arrival at an empty VC, or from when it reaches the front
// (meshsync_input_buffer).
//
// A multidestination worm (docs/microarchitecture.md "Multidestination worms") is
// classified as it arrives: its head, when addressed here, goes to Local alone; the
// address flit behind it is routed by its own destination and tagged `promote` (it heads
// the forwarded worm) and `copy` (it also goes to Local), and the flits after it carry
// `copy` up to the tail.
//
// A reduction message is a sync worm (docs/reduction-hardware.md): its body flits carry no
// address and follow their head, to the barrier unit or to the head's output, which is
// known once the head has left (follow_q, per sync VC; contract step 3).
//
// Arrivals are registered before their CAM lookup: a flit is written with its route and
// the delay the flit alone implies (Trm if it is a sync message addressed here, else
// Trn); in its arrival cycle the router looks its GID up in the register file as it is
// then (fresh_*) and the lookup completes the classification (cam_*): a message for this
// router goes to the barrier unit or to the NI, a message crossing a CS path router
// takes Trm.
`include "meshsync_assert.svh"

module meshsync_input_port #(
  /// Flit width in bits: meshsync_pkg::FlitBits (the contract's format, flit_t, is 32).
  parameter int unsigned FlitW = 32,
  /// Worm VC (VC 0 and VC 3) buffer depth.
  parameter int unsigned BufferDepth = 16,
  /// Depth of each sync VC buffer (VC 1, VC 2).
  parameter int unsigned SyncBufferDepth = 4,
  /// Depth of the tree VC buffer (VC 4); 0: the router has no tree VC.
  parameter int unsigned TreeBufferDepth = 66,
  /// Multidestination (path) worms: absorb-and-forward and the snake VC (VC 3). 0: unicast
  /// worms only, and no VC 3.
  parameter bit PathWorms = 1'b1,
  /// Router delay when a router only forwards (cycles, >= 1).
  parameter int unsigned Trn = 5,
  /// Router delay when the barrier unit or a CS path entry processes a sync message.
  parameter int unsigned Trm = 30,
  /// Width of the countdown of the sync VCs (req_cnt_o).
  parameter int unsigned CntW = 5,
  /// The router has barrier registers (CAM lookups, CS transit entries).
  parameter bit HasRegs = 1'b1,
  /// Worms enter the network here (the Local input): a worm head's forced first hop counts.
  parameter bit Injection = 1'b0,
  /// Unicast VCs (VC 0 and VCs 5..), each BufferDepth deep.
  parameter int unsigned UnicastVcs = 1,
  /// Cycles a worm head spends at its VC's front before its Trn (RoutingStage + VaStage).
  parameter int unsigned HeadStages = 0,
  /// VCs and the bits of a VC number (derived; do not set).
  parameter int unsigned NumVcs = meshsync_pkg::ClassVcs + UnicastVcs - 1,
  parameter int unsigned VcW = meshsync_pkg::vc_width(NumVcs)
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  input  logic [meshsync_pkg::CoordW-1:0]              here_x_i,
  input  logic [meshsync_pkg::CoordW-1:0]              here_y_i,
  // The flit arriving at the next clock edge (its arrival cycle is the next cycle).
  input  logic                                         in_valid_i,
  input  logic [VcW-1:0]                               in_vc_i,
  input  meshsync_pkg::flit_t                          in_flit_i,
  // The GID of the sync message that arrived in this cycle (at most one per port), for
  // the CAM.
  output logic [meshsync_pkg::GidW-1:0]                fresh_gid_o,
  // Its lookup in the register file as it is in this cycle: a valid entry, programmed as
  // a member, with the transit (CS) bit.
  input  logic                                         cam_hit_i,
  input  logic                                         cam_member_i,
  input  logic                                         cam_transit_i,
  // Per output port o and VC v (bit o*NumVcs+v): a credit is available, or o is Local.
  input  logic [meshsync_pkg::NumPorts*NumVcs-1:0]     credit_ok_i,
  // Per output port o and owner slot s (bit owner_slot(o, s, NumVcs)): the worm VC is free
  // / held by this input. Port 0 is this input's NI output. The tree VC's owner is the
  // claim's.
  input  logic [meshsync_pkg::NumPorts*NumVcs-1:0]     owner_free_i,
  input  logic [meshsync_pkg::NumPorts*NumVcs-1:0]     owner_mine_i,
  // Per output port o (port 0: this input's NI output): the unicast VC a worm head
  // leaving there now takes, and whether there is one (free, with a credit).
  input  logic [meshsync_pkg::NumPorts-1:0]            alloc_ok_i,
  input  logic [meshsync_pkg::NumPorts*VcW-1:0]        alloc_vc_i,
  // The tree VC (docs/tree-multicast.md). Out: its front flit is a head, ready, for the
  // router's claim (with the flit and its routed port: Local = addressed here). In: the
  // worm passing now has claimed its outputs (this cycle's claim included), the links
  // among them (bits 1-4), and none at all (dropped here).
  output logic                                         tree_head_o,
  output meshsync_pkg::flit_t                          tree_flit_o,
  output logic [meshsync_pkg::PortW-1:0]               tree_out_o,
  input  logic                                         tree_claimed_i,
  input  logic [meshsync_pkg::NumPorts-1:0]            tree_links_i,
  input  logic                                         tree_drop_i,
  // This cycle's request: one VC's head flit, for an output or the barrier unit (which
  // takes its messages from their arrival on; req_cnt_o is the delay they still have).
  // req_cs_o: the request for the unit is a setup/teardown passing through, whose CS
  // entry the unit updates (cs_done_i) before it may request its output.
  output logic                                         req_valid_o,
  output logic                                         req_consume_o,
  output logic                                         req_cs_o,
  output logic [meshsync_pkg::PortW-1:0]               req_out_o,
  // The request's flit also goes to Local (absorbed and forwarded), and leaves on
  // req_out_o as a head (the forwarded worm's new head).
  output logic                                         req_copy_o,
  output logic                                         req_promote_o,
  // A tree flit (its outputs are the router's claim), and one that is dropped here.
  output logic                                         req_tree_o,
  output logic                                         req_drop_o,
  output logic [VcW-1:0]                               req_vc_o,
  // The VC the request's flit takes at its output: a unicast worm's allocated VC, every
  // other flit's own.
  output logic [VcW-1:0]                               req_out_vc_o,
  output meshsync_pkg::flit_t                          req_flit_o,
  output logic [CntW-1:0]                              req_cnt_o,
  // The request was served (barrier unit or output grant): its VC pops.
  input  logic                                         gnt_i,
  // The barrier unit found no member register for the request: it goes on to the NI.
  input  logic                                         relabel_i,
  input  logic                                         cs_done_i,
  output logic [NumVcs-1:0]                            pop_o,
  output logic [NumVcs-1:0]                            full_o,
  // All its VC buffers are empty.
  output logic                                         idle_o,
  // Flow-control violation (write into a full VC), a flit on the wrong VC, or a
  // multidestination worm with no further destination after absorbing here.
  output logic                                         error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  // The worm VCs only ever wait Trn, and a head its stages before it.
  localparam int unsigned WormDelay = Trn + HeadStages;
  localparam int unsigned WormCntW = (WormDelay > 1) ? $clog2(WormDelay) : 1;
  localparam logic [CntW-1:0] CntTrn = CntW'(Trn - 1);
  localparam logic [CntW-1:0] CntHead = CntW'(WormDelay - 1);
  // Per worm VC a slot of arrival state: VC 0, VC 3, then the unicast VCs 5...
  localparam int unsigned WormSlots = UnicastVcs + 1;
  localparam int unsigned SlotW = $clog2(WormSlots);
  localparam int unsigned LaneW = (UnicastVcs > 1) ? $clog2(UnicastVcs) : 1;
  // More than one unicast VC: VC allocation at the outputs, worms on VCs 5.. as well.
  localparam bit Lanes = UnicastVcs > 1;
  localparam logic [CntW-1:0] CntTrm = CntW'(Trm - 1);

  // ---------------------------------------------------------------------------------------
  // Arrival: route and the delay the flit alone implies
  // ---------------------------------------------------------------------------------------
  logic in_head, in_tail, in_sync, in_yx, in_control, in_addr, in_more, in_snake, in_unicast_vc;
  logic [SlotW-1:0] slot;
  logic in_tree_vc, in_tree_head, in_sync_vc;
  logic [meshsync_pkg::BaseW-1:0] in_base;
  logic [PortW-1:0] xy_port, snake_port, base_port, in_first, route_port, push_out;
  logic forced;
  logic [CntW-1:0] push_cnt;
  // {promote, copy}
  logic [1:0] push_tag;
  logic [VcW-1:0] expected_vc;
  logic vc_error, stray_error;
  // Per worm VC (slot 0: VC 0, slot 1: VC 3, slot 1 + l: unicast VC l's), what the worm
  // now arriving does here: its output, whether it is absorbed as well, whether the next
  // flit heads it from here. worm_out_q is one packed register, so that its flip-flops
  // keep their name (an unpacked array's are named per element); worm_out[s] is slot s's
  // output, worm_out_next[s] its next value.
  logic [WormSlots*PortW-1:0] worm_out_q, worm_out_d;
  logic [PortW-1:0] worm_out [WormSlots];
  logic worm_update;
  logic [WormSlots-1:0] worm_copy_q, worm_copy_d, worm_promote_q, worm_promote_d;
  // The arriving flit's slot now, and what it leaves for the flits behind it.
  logic [PortW-1:0] cur_out, nxt_out;
  logic cur_copy, cur_promote, nxt_copy, nxt_promote;

  assign in_head = in_flit_i.head;
  assign in_tail = in_flit_i.tail;
  assign in_sync = in_head && in_flit_i.f.hdr.sync;
  assign in_yx = in_flit_i.f.hdr.route;
  // A setup or teardown (SyncSetup, SyncTeardown: the message types with bit 1 set).
  assign in_control = in_flit_i.f.hdr.view.sync.msg[1];
  // Address-flit fields (the worm view); a data flit's bits there are payload, and only a
  // head or the address flit after an absorbing head are read as addresses.
  assign in_addr = !in_flit_i.f.hdr.sync && in_flit_i.f.hdr.view.worm.mcast;
  assign in_more = in_flit_i.f.hdr.view.worm.more;
  assign in_base = in_flit_i.f.hdr.view.worm.base;
  assign in_snake = PathWorms && in_addr && (in_base != meshsync_pkg::BaseXY) && (in_base != meshsync_pkg::BaseTree);
  // (With one unicast VC the router is the papers' one, gate for gate: VC 0 or VC 3.)
  assign slot = (in_vc_i == VcW'(meshsync_pkg::VcSnake)) ? SlotW'(1) :
                (Lanes && in_vc_i >= VcW'(meshsync_pkg::ClassVcs)) ? SlotW'(in_vc_i - VcW'(meshsync_pkg::ClassVcs - 2)) :
                SlotW'(0);
  assign in_unicast_vc = Lanes && ((in_vc_i == VcW'(meshsync_pkg::VcWorm)) ||
                                   (in_vc_i >= VcW'(meshsync_pkg::ClassVcs) && 32'(in_vc_i) < NumVcs));
  // Tree worms keep to VC 4; their head is an address-flit format with base 3.
  assign in_tree_vc = in_vc_i == VcW'(meshsync_pkg::VcTree);
  assign in_tree_head = in_head && in_addr && (in_base == meshsync_pkg::BaseTree);
  assign in_sync_vc = (in_vc_i == VcW'(meshsync_pkg::VcSyncXy)) || (in_vc_i == VcW'(meshsync_pkg::VcSyncYx));

  meshsync_route u_route (
    .here_x_i (here_x_i),
    .here_y_i (here_y_i),
    .dest_x_i (in_flit_i.f.hdr.dest_x),
    .dest_y_i (in_flit_i.f.hdr.dest_y),
    .yx_i     (in_yx),
    .port_o   (xy_port)
  );

  meshsync_snake_route u_snake_route (
    .here_x_i (here_x_i),
    .here_y_i (here_y_i),
    .dest_x_i (in_flit_i.f.hdr.dest_x),
    .dest_y_i (in_flit_i.f.hdr.dest_y),
    .low_i    (in_base == meshsync_pkg::BaseLow),
    .port_o   (snake_port)
  );

  assign base_port = in_snake ? snake_port : xy_port;
  // MP's forced first hop (docs/microarchitecture.md): a worm head entering on the
  // injection input leaves by the port it names, unless it is addressed here; later
  // routers see it on a link input and follow the base routing.
  assign in_first = in_flit_i.f.hdr.view.worm.first;
  assign forced = Injection && PathWorms && in_head && in_addr && !in_tree_head && (in_first != meshsync_pkg::PortLocal) &&
                  (base_port != meshsync_pkg::PortLocal);
  assign route_port = forced ? in_first : base_port;

  // A worm flit arriving updates its slot.
  assign worm_update = in_valid_i && !in_sync && !in_sync_vc && !in_tree_vc;
  for (genvar s = 0; s < WormSlots; s++) begin : gen_worm_slot
    assign worm_out[s] = worm_out_q[s*PortW +: PortW];
    assign worm_out_d[s*PortW +: PortW] = (worm_update && (slot == SlotW'(s))) ? nxt_out : worm_out[s];
    assign worm_copy_d[s] = (worm_update && (slot == SlotW'(s))) ? nxt_copy : worm_copy_q[s];
    assign worm_promote_d[s] = (worm_update && (slot == SlotW'(s))) ? nxt_promote : worm_promote_q[s];
  end

  assign cur_out = worm_out[slot];
  assign cur_copy = worm_copy_q[slot];
  assign cur_promote = worm_promote_q[slot];

  // Body and tail flits follow their head's output.
  always_comb begin
    push_cnt = CntTrn;
    push_out = route_port;
    push_tag = 2'b00;
    stray_error = 1'b0;
    nxt_out = cur_out;
    nxt_copy = cur_copy;
    nxt_promote = cur_promote;
    if (in_tree_vc) begin
      // A tree flit's outputs are claimed by its head at the front (the router); a head
      // addressed here is processed in Trm.
      if (in_head && route_port == meshsync_pkg::PortLocal) push_cnt = CntTrm;
    end else if (in_sync) begin
      if (route_port == meshsync_pkg::PortLocal) begin
        // Setup/teardown end their path in the barrier unit; the others go to the NI
        // unless the CAM finds a member register for them.
        push_cnt = CntTrm;
        push_out = in_control ? meshsync_pkg::OutConsume : meshsync_pkg::PortLocal;
      end
    end else if (in_sync_vc) begin
      // A reduction message's body flit: its output is its head's, resolved at the front
      // (follow_q); forwarded, it is ready Trn - 1 after its arrival.
    end else if (in_head) begin
      // A worm head: its stages, then its Trn.
      push_cnt = CntHead;
      nxt_out = route_port;
      // A multidestination head addressed here: absorbed, and forwarded from the next
      // flit on if more addresses follow.
      nxt_copy = PathWorms && in_addr && (route_port == meshsync_pkg::PortLocal) && in_more;
      nxt_promote = nxt_copy;
    end else if (cur_promote) begin
      push_tag = 2'b11;
      nxt_out = route_port;
      nxt_promote = 1'b0;
      stray_error = !in_addr || (route_port == meshsync_pkg::PortLocal);
    end else begin
      push_out = cur_out;
      push_tag = {1'b0, cur_copy};
    end
    if (!in_sync && in_tail) begin
      nxt_copy = 1'b0;
      nxt_promote = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      worm_out_q <= {WormSlots{meshsync_pkg::PortLocal}};
      worm_copy_q <= '0;
      worm_promote_q <= '0;
    end else begin
      worm_out_q <= worm_out_d;
      worm_copy_q <= worm_copy_d;
      worm_promote_q <= worm_promote_d;
    end
  end

  // Sync messages travel on VC 1 (R = XY) or VC 2 (R = YX); a worm whose head is an
  // address flit of a snake base on VC 3, every other multidestination worm on VC 0, a
  // unicast worm on any unicast VC (a worm's later flits stay on the VC it arrives on).
  always_comb begin
    if (in_sync) expected_vc = in_yx ? VcW'(meshsync_pkg::VcSyncYx) : VcW'(meshsync_pkg::VcSyncXy);
    else if (in_tree_head) expected_vc = VcW'(meshsync_pkg::VcTree);
    else if (in_head && in_addr) expected_vc = in_snake ? VcW'(meshsync_pkg::VcSnake) : VcW'(meshsync_pkg::VcWorm);
    else if (in_head) expected_vc = in_unicast_vc ? in_vc_i : VcW'(meshsync_pkg::VcWorm);
    else if (in_vc_i == VcW'(meshsync_pkg::VcSnake) || in_tree_vc || in_sync_vc || in_unicast_vc) expected_vc = in_vc_i;
    else expected_vc = VcW'(meshsync_pkg::VcWorm);
  end
  assign vc_error = in_valid_i && (in_vc_i != expected_vc);

  // ---------------------------------------------------------------------------------------
  // The CAM decision in the arrival cycle
  // ---------------------------------------------------------------------------------------
  logic [NumVcs-1:0] fresh;
  logic [FlitW-1:0] fresh_flit [NumVcs];
  logic [PortW-1:0] fresh_out [NumVcs];
  logic fix_out, fix_cnt, fresh_valid, fresh_here;
  // The sync VCs' fresh entries (VC 1, VC 2) as flits, and the one looked up.
  meshsync_pkg::flit_t fresh_xy, fresh_yx, fresh_msg;
  logic [PortW-1:0] fix_port;

  // Only sync heads are corrected (a body flit follows its head); one of the sync VCs at
  // most holds a fresh entry.
  assign fresh_xy = fresh_flit[1];
  assign fresh_yx = fresh_flit[2];
  assign fresh_valid = (fresh[1] && fresh_xy.head) || (fresh[2] && fresh_yx.head);
  assign fresh_msg = fresh[2] ? fresh_yx : fresh_xy;
  assign fresh_gid_o = fresh_msg.f.hdr.view.sync.gid;
  // Addressed here and not a setup/teardown (those are OutConsume already).
  assign fresh_here = (fresh[2] ? fresh_out[2] : fresh_out[1]) == meshsync_pkg::PortLocal;
  // A message of a group with a member register here goes to the barrier unit.
  assign fix_out = HasRegs && fresh_valid && fresh_here && cam_hit_i && cam_member_i;
  assign fix_port = meshsync_pkg::OutConsume;
  // Crossing a CS path router: Trm instead of Trn.
  assign fix_cnt = HasRegs && fresh_valid && (fresh[2] ? fresh_out[2] : fresh_out[1]) !=
                   meshsync_pkg::OutConsume && !fresh_here && cam_hit_i && cam_transit_i;

  // ---------------------------------------------------------------------------------------
  // VC buffers
  // ---------------------------------------------------------------------------------------
  logic [NumVcs-1:0] head_valid, head_ready, head_done, cs_req, overflow, eligible, empty;
  // The VCs' head flits as plain vectors (Yosys 0.23 misreads unpacked arrays of structs,
  // and member selects after an index): their flags are read through head_fl (below).
  logic [FlitW-1:0] head_flit [NumVcs];
  // Per VC, the head flit is a message's head, its tail, a setup or teardown.
  logic [NumVcs-1:0] head_is_head, head_is_tail, head_is_control;
  meshsync_pkg::flit_t head_fl;
  logic [PortW-1:0] head_out [NumVcs];
  logic [1:0] head_tag [NumVcs];
  logic [CntW-1:0] head_cnt [NumVcs];
  logic sel_valid;
  logic [VcW-1:0] sel_vc;
  // Per VC, the VC its front flit takes at its output (req_out_vc_o).
  logic [VcW-1:0] out_vc [NumVcs];
  // Per unicast VC (by lane), the lane its worm's head took at the output: the flits
  // behind it follow there (VC allocation). One packed register (its flip-flops keep their
  // name); held_lane[l] is lane l's.
  logic [UnicastVcs*LaneW-1:0] held_lane_q, held_lane_d;
  logic [LaneW-1:0] held_lane [UnicastVcs];
  // Per VC, its front flit is a multidestination worm's (a head's mcast bit).
  logic [NumVcs-1:0] head_is_mcast;
  // Per sync VC (VC 1, VC 2), where the reduction message now passing went: the barrier
  // unit (OutConsume) or an output, set as its head leaves the buffer. One packed register
  // (its flip-flops keep their name); follow[s] is sync VC s + 1's.
  logic [2*PortW-1:0] follow_q, follow_d;
  logic [PortW-1:0] follow [2];

  always_comb begin
    for (int v = 0; v < NumVcs; v++) begin
      head_fl = head_flit[v];
      head_is_head[v] = head_fl.head;
      head_is_tail[v] = head_fl.tail;
      head_is_control[v] = head_fl.f.hdr.view.sync.msg[1];
      head_is_mcast[v] = head_fl.f.hdr.view.worm.mcast;
    end
  end

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    localparam bit Unicast = meshsync_pkg::is_unicast_vc(v);
    localparam bit WormVc = Unicast || (v == 3);
    localparam bit TreeVc = (v == 4);
    localparam bit SyncVc = (v == 1) || (v == 2);
    localparam int unsigned Depth = TreeVc ? TreeBufferDepth :
                                    (v == 3) ? (PathWorms ? BufferDepth : 0) :
                                    WormVc ? BufferDepth : SyncBufferDepth;
    localparam int unsigned VcCntW = WormVc ? WormCntW : CntW;
    localparam int unsigned Owner = meshsync_pkg::vc_owner(v);
    // A worm head that reaches the front behind another flit runs its stages from there:
    // its countdown is at least this when it gets there.
    localparam int unsigned FrontCnt = (WormVc && HeadStages > 0) ? WormDelay - 2 : 0;
    logic push, credit, worm_ok, relabel, cs_path;
    logic [PortW-1:0] buf_out;
    logic [VcCntW-1:0] cnt;
    assign push = in_valid_i && (in_vc_i == VcW'(v));
    assign pop_o[v] = gnt_i && (sel_vc == VcW'(v));
    assign relabel = relabel_i && (sel_vc == VcW'(v));

    if (Depth == 0) begin : gen_absent
      // A VC the router is built without (no path worms, no tree VC): no storage, never a
      // request. Its upstream has no credits for it, so a flit on it is an overflow.
      assign fresh[v] = 1'b0;
      assign fresh_flit[v] = '0;
      assign fresh_out[v] = '0;
      assign head_valid[v] = 1'b0;
      assign head_done[v] = 1'b0;
      assign head_ready[v] = 1'b0;
      assign cnt = '0;
      assign head_flit[v] = '0;
      assign buf_out = '0;
      assign head_tag[v] = '0;
      assign full_o[v] = 1'b1;
      assign empty[v] = 1'b1;
      assign overflow[v] = push;
      logic unused_relabel;
      assign unused_relabel = relabel;
    end else begin : gen_buffer
      meshsync_input_buffer #(
        .Depth      (Depth),
        .FlitW      (FlitW),
        .CntW       (VcCntW),
        .HeadStages (WormVc && HeadStages > 0),
        .FrontCnt   (FrontCnt)
      ) u_buffer (
        .clk_i           (clk_i),
        .rst_ni          (rst_ni),
        .push_i          (push),
        .push_flit_i     (in_flit_i),
        .push_cnt_i      (push_cnt[VcCntW-1:0]),
        .push_out_i      (push_out),
        .push_tag_i      (push_tag),
        .fresh_o         (fresh[v]),
        .fresh_flit_o    (fresh_flit[v]),
        .fresh_out_o     (fresh_out[v]),
        .fix_out_i       (!WormVc && !TreeVc && fix_out),
        .fix_out_port_i  (fix_port),
        .fix_cnt_i       (!WormVc && !TreeVc && fix_cnt),
        .fix_cnt_value_i (CntTrm[VcCntW-1:0]),
        .relabel_i       (relabel),
        .done_i          (cs_done_i && (sel_vc == VcW'(v))),
        .pop_i           (pop_o[v]),
        .head_valid_o    (head_valid[v]),
        .head_done_o     (head_done[v]),
        .head_ready_o    (head_ready[v]),
        .head_cnt_o      (cnt),
        .head_flit_o     (head_flit[v]),
        .head_out_o      (buf_out),
        .head_tag_o      (head_tag[v]),
        .full_o          (full_o[v]),
        .empty_o         (empty[v]),
        .overflow_o      (overflow[v])
      );
    end
    assign head_cnt[v] = CntW'(cnt);
    // A sync body flit goes where its head went.
    if (SyncVc) begin : gen_follow
      assign head_out[v] = head_is_head[v] ? buf_out : follow[v - 1];
    end else begin : gen_own_out
      assign head_out[v] = buf_out;
    end
    // A setup/teardown on its way through (sync VCs only; Local and OutConsume are the
    // outputs of messages addressed here).
    assign cs_path = HasRegs && SyncVc && head_is_head[v] && head_is_control[v] &&
                     (head_out[v] != meshsync_pkg::PortLocal) &&
                     (head_out[v] != meshsync_pkg::OutConsume);
    assign cs_req[v] = head_valid[v] && cs_path && !head_done[v];

    // A flit needs its output's VC free when it heads its message there (a single-flit
    // sync message takes and frees it at once), held by this input otherwise; a flit
    // absorbed as well needs Local's held by this input (the absorbed head went there
    // alone). A unicast worm's head takes the VC its output allocates (alloc_*: free,
    // with a credit), the flits behind it the VC it took (held_lane); a multidestination
    // worm on VC 0 keeps VC 0.
    logic alloc_head;
    logic [LaneW-1:0] lane;
    if (Unicast) begin : gen_unicast
      // With one unicast VC a head takes VC 0 by the owner rule below, as any worm does.
      assign alloc_head = Lanes && head_is_head[v] && !head_is_mcast[v];
      assign lane = head_is_head[v] ? '0 : held_lane[meshsync_pkg::unicast_lane(v)];
    end else begin : gen_class
      assign alloc_head = 1'b0;
      assign lane = '0;
    end
    always_comb begin
      credit = 1'b0;
      worm_ok = !WormVc && !SyncVc;
      out_vc[v] = VcW'(v);
      for (int o = 0; o < NumPorts; o++) begin
        if (TreeVc) begin
          // Every claimed link has a credit (claimed into an empty buffer, so it always
          // does; checked as the model does).
          if (o == 0) credit = 1'b1;
          if (tree_links_i[o] && !credit_ok_i[o * NumVcs + v]) credit = 1'b0;
        end else
        if (head_out[v] == PortW'(o)) begin
          if (alloc_head) begin
            credit = alloc_ok_i[o];
            worm_ok = 1'b1;
            out_vc[v] = alloc_vc_i[o*VcW +: VcW];
          end else if (Unicast && Lanes) begin
            for (int l = 0; l < UnicastVcs; l++) begin
              if (lane == LaneW'(l)) begin
                out_vc[v] = VcW'(meshsync_pkg::unicast_vc(l));
                credit = credit_ok_i[o * NumVcs + meshsync_pkg::unicast_vc(l)];
                worm_ok = (head_is_head[v] || head_tag[v][1])
                          ? owner_free_i[meshsync_pkg::owner_slot(o, meshsync_pkg::vc_owner(meshsync_pkg::unicast_vc(l)), NumVcs)]
                          : owner_mine_i[meshsync_pkg::owner_slot(o, meshsync_pkg::vc_owner(meshsync_pkg::unicast_vc(l)), NumVcs)];
              end
            end
          end else begin
            credit = credit_ok_i[o * NumVcs + v];
            if (WormVc || SyncVc) begin
              worm_ok = (head_is_head[v] || head_tag[v][1])
                        ? owner_free_i[meshsync_pkg::owner_slot(o, Owner, NumVcs)]
                        : owner_mine_i[meshsync_pkg::owner_slot(o, Owner, NumVcs)];
            end
          end
        end
      end
      if (WormVc && head_tag[v][0]) worm_ok = worm_ok && owner_mine_i[meshsync_pkg::owner_slot(0, Owner, NumVcs)];
      if (TreeVc) begin
        eligible[v] = head_ready[v] && tree_claimed_i && (tree_drop_i || credit);
      end else begin
        // The barrier unit takes its messages from their arrival on.
        eligible[v] = (head_valid[v] && (head_out[v] == meshsync_pkg::OutConsume)) || cs_req[v] ||
                      (head_ready[v] && credit && worm_ok && !(cs_path && !head_done[v]));
      end
    end
  end

  // A unicast worm's head leaving takes its output VC's lane for the flits behind it (a
  // multidestination head leaves on VC 0: lane 0).
  for (genvar l = 0; l < UnicastVcs; l++) begin : gen_held_lane
    localparam int unsigned Vc = meshsync_pkg::unicast_vc(l);
    assign held_lane[l] = held_lane_q[l*LaneW +: LaneW];
    assign held_lane_d[l*LaneW +: LaneW] =
        (pop_o[Vc] && head_is_head[Vc]) ? LaneW'(meshsync_pkg::unicast_lane(32'(out_vc[Vc]))) : held_lane[l];
  end
  if (UnicastVcs > 1) begin : gen_held_lane_q
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        held_lane_q <= '0;
      end else begin
        held_lane_q <= held_lane_d;
      end
    end
  end else begin : gen_one_lane
    // One unicast VC: every worm stays on VC 0, and takes it by the owner rule.
    assign held_lane_q = '0;
    logic unused_held;
    assign unused_held = ^{held_lane_d, held_lane[0], alloc_ok_i, alloc_vc_i};
  end

  for (genvar s = 0; s < 2; s++) begin : gen_follow_slot
    assign follow[s] = follow_q[s*PortW +: PortW];
    assign follow_d[s*PortW +: PortW] =
        (pop_o[s + 1] && head_is_head[s + 1] && !head_is_tail[s + 1]) ? head_out[s + 1] : follow[s];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      follow_q <= {2{meshsync_pkg::OutConsume}};
    end else begin
      follow_q <= follow_d;
    end
  end

  assign tree_head_o = head_valid[4] && head_ready[4] && head_is_head[4];
  assign tree_flit_o = head_flit[4];
  assign tree_out_o = head_out[4];

  logic unused_tree_owner;
  always_comb begin
    unused_tree_owner = 1'b0;
    for (int o = 0; o < NumPorts; o++) begin
      unused_tree_owner = unused_tree_owner ^
                          owner_free_i[meshsync_pkg::owner_slot(o, meshsync_pkg::OwnerTree, NumVcs)] ^
                          owner_mine_i[meshsync_pkg::owner_slot(o, meshsync_pkg::OwnerTree, NumVcs)];
    end
  end

  logic unused_fresh;
  assign unused_fresh = ^{fresh[0], fresh_flit[0], fresh_out[0], fresh[3], fresh_flit[3],
                         fresh_out[3], fresh[4], fresh_flit[4], fresh_out[4], fresh_msg, head_tag[4],
                         head_cnt[4], head_is_tail[0], head_is_tail[4:3], head_is_mcast[4:1]};
  // The unicast VCs after the classes carry worms: no CAM lookup, and no tail to follow.
  for (genvar v = meshsync_pkg::ClassVcs; v < NumVcs; v++) begin : gen_unused_unicast
    logic unused_unicast;
    assign unused_unicast = ^{fresh[v], fresh_flit[v], fresh_out[v], head_is_tail[v]};
  end

  // Input arbitration (contract step 4): the pointer moves when the chosen VC pops.
  meshsync_rr_arbiter #(
    .NumReq (NumVcs)
  ) u_arbiter (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (eligible),
    .keep_i      (gnt_i),
    .gnt_valid_o (sel_valid),
    .gnt_idx_o   (sel_vc)
  );

  assign req_valid_o = sel_valid;
  assign req_vc_o = sel_vc;
  // (One unicast VC: every flit keeps its VC; a mux of constants synthesis would keep.)
  assign req_out_vc_o = Lanes ? out_vc[sel_vc] : sel_vc;
  assign req_flit_o = head_flit[sel_vc];
  assign req_out_o = head_out[sel_vc];
  assign req_copy_o = head_tag[sel_vc][0];
  assign req_promote_o = head_tag[sel_vc][1];
  assign req_tree_o = sel_valid && (sel_vc == VcW'(meshsync_pkg::VcTree));
  assign req_drop_o = req_tree_o && tree_drop_i;
  assign req_cnt_o = head_cnt[sel_vc];
  assign req_cs_o = sel_valid && cs_req[sel_vc];
  assign req_consume_o = sel_valid && ((head_out[sel_vc] == meshsync_pkg::OutConsume) ||
                                       cs_req[sel_vc]);

  assign idle_o = &empty;
  assign error_o = vc_error || (|overflow) || (in_valid_i && stray_error);

  // Cover points (scripts/coverage): each cause of error_o here, and a tree flit dropped.
  `COVER(VcError_C, vc_error)
  `COVER(OverflowError_C, |overflow)
  `COVER(StrayError_C, in_valid_i && stray_error)
  `COVER(TreeFlitDropped_C, gnt_i && req_drop_o)

`ifdef MESHSYNC_FORMAL_INPUT_PORT
  `include "input_port.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

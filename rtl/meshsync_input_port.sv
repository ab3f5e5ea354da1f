// One input port: arrival processing (route computation, router delay, CAM decision), the
// three VC buffers and the input arbiter. Contract steps 3 and 4.
module meshsync_input_port #(
  /// Flit width in bits (the contract's format is 32).
  parameter int unsigned FlitW = 32,
  /// Worm VC (VC 0) buffer depth.
  parameter int unsigned BufferDepth = 16,
  /// Depth of each sync VC buffer (VC 1, VC 2).
  parameter int unsigned SyncBufferDepth = 4,
  /// Router delay when a router only forwards (cycles, >= 1).
  parameter int unsigned Trn = 5,
  /// Router delay when the barrier unit or a CS path entry processes a sync message.
  parameter int unsigned Trm = 30
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  input  logic [meshsync_pkg::CoordW-1:0]              here_x_i,
  input  logic [meshsync_pkg::CoordW-1:0]              here_y_i,
  // The flit arriving at the next clock edge (its arrival cycle is the next cycle).
  input  logic                                         in_valid_i,
  input  logic [meshsync_pkg::VcW-1:0]                 in_vc_i,
  input  logic [FlitW-1:0]                             in_flit_i,
  // CAM lookup of the arriving flit's GID in the register file as it will be in its
  // arrival cycle: a valid entry, programmed as a member, with the transit (CS) bit.
  input  logic                                         cam_hit_i,
  input  logic                                         cam_member_i,
  input  logic                                         cam_transit_i,
  // Per output port o and VC v (bit o*3+v): a credit is available, or o is Local.
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::NumVcs-1:0] credit_ok_i,
  // Per output port: the worm VC is free / held by this input.
  input  logic [meshsync_pkg::NumPorts-1:0]            owner_free_i,
  input  logic [meshsync_pkg::NumPorts-1:0]            owner_mine_i,
  // This cycle's request: one VC's head flit, for an output or the barrier unit.
  output logic                                         req_valid_o,
  output logic                                         req_consume_o,
  output logic [meshsync_pkg::PortW-1:0]               req_out_o,
  output logic [meshsync_pkg::VcW-1:0]                 req_vc_o,
  output logic [FlitW-1:0]                             req_flit_o,
  // The request was served (barrier unit or output grant): its VC pops.
  input  logic                                         gnt_i,
  output logic [meshsync_pkg::NumVcs-1:0]              pop_o,
  output logic [meshsync_pkg::NumVcs-1:0]              full_o,
  // All three VC buffers are empty.
  output logic                                         idle_o,
  // Flow-control violation (write into a full VC) or a flit on the wrong VC.
  output logic                                         error_o
);

  localparam int unsigned NumVcs = meshsync_pkg::NumVcs;
  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned MaxDelay = (Trm > Trn) ? Trm : Trn;
  localparam int unsigned CntW = (MaxDelay > 1) ? $clog2(MaxDelay) : 1;
  // The worm VC only ever waits Trn.
  localparam int unsigned WormCntW = (Trn > 1) ? $clog2(Trn) : 1;
  localparam logic [CntW-1:0] CntTrn = CntW'(Trn - 1);
  localparam logic [CntW-1:0] CntTrm = CntW'(Trm - 1);

  // ---------------------------------------------------------------------------------------
  // Arrival processing
  // ---------------------------------------------------------------------------------------
  logic in_head, in_sync, in_yx, in_control;
  logic [PortW-1:0] route_port, worm_out_q, worm_out_d, push_out;
  logic [CntW-1:0] push_cnt;
  logic [meshsync_pkg::VcW-1:0] expected_vc;
  logic vc_error;

  assign in_head = in_flit_i[FlitW-1];
  // Bit 29 is payload in body flits: only a head flit can be a sync message.
  assign in_sync = in_head && in_flit_i[FlitW-3];
  assign in_yx = in_flit_i[meshsync_pkg::RouteBit];
  // Setup and teardown are consumed at the end of their path whatever the CAM holds.
  assign in_control = in_flit_i[meshsync_pkg::TypeLsb + 1];

  meshsync_route u_route (
    .here_x_i (here_x_i),
    .here_y_i (here_y_i),
    .dest_x_i (in_flit_i[meshsync_pkg::DestXLsb +: CoordW]),
    .dest_y_i (in_flit_i[meshsync_pkg::DestYLsb +: CoordW]),
    .yx_i     (in_yx),
    .port_o   (route_port)
  );

  always_comb begin
    push_cnt = CntTrn;
    push_out = route_port;
    worm_out_d = worm_out_q;
    if (in_sync) begin
      if (route_port == meshsync_pkg::PortLocal) begin
        // Addressed to this router: through the CAM (Trm). A miss goes on to the NI, which
        // holds the group in node memory.
        push_cnt = CntTrm;
        push_out = (in_control || (cam_hit_i && cam_member_i)) ? meshsync_pkg::OutConsume
                                                                : meshsync_pkg::PortLocal;
      end else if (cam_hit_i && cam_transit_i) begin
        push_cnt = CntTrm;  // a CS path router processes every message of the group
      end
    end else if (in_head) begin
      if (in_valid_i) worm_out_d = route_port;
    end else begin
      // Body and tail flits carry no address: they follow their head.
      push_out = worm_out_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      worm_out_q <= meshsync_pkg::PortLocal;
    end else begin
      worm_out_q <= worm_out_d;
    end
  end

  assign expected_vc = in_sync ? {1'b0, 1'b1} + {1'b0, in_yx} : meshsync_pkg::VcWorm;
  assign vc_error = in_valid_i && (in_vc_i != expected_vc);

  // ---------------------------------------------------------------------------------------
  // VC buffers
  // ---------------------------------------------------------------------------------------
  logic [NumVcs-1:0] head_ready, overflow, eligible, empty;
  logic [FlitW-1:0] head_flit [NumVcs];
  logic [PortW-1:0] head_out [NumVcs];
  logic sel_valid;
  logic [meshsync_pkg::VcW-1:0] sel_vc;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    localparam int unsigned Depth = (v == 0) ? BufferDepth : SyncBufferDepth;
    localparam int unsigned VcCntW = (v == 0) ? WormCntW : CntW;
    logic push, credit, worm_ok;
    assign push = in_valid_i && (in_vc_i == meshsync_pkg::VcW'(v));
    assign pop_o[v] = gnt_i && (sel_vc == meshsync_pkg::VcW'(v));

    meshsync_input_buffer #(
      .Depth (Depth),
      .FlitW (FlitW),
      .CntW  (VcCntW)
    ) u_buffer (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .push_i       (push),
      .push_flit_i  (in_flit_i),
      .push_cnt_i   (push_cnt[VcCntW-1:0]),
      .push_out_i   (push_out),
      .pop_i        (pop_o[v]),
      .head_ready_o (head_ready[v]),
      .head_flit_o  (head_flit[v]),
      .head_out_o   (head_out[v]),
      .full_o       (full_o[v]),
      .empty_o      (empty[v]),
      .overflow_o   (overflow[v])
    );

    // Contract step 4: ready, and either for the barrier unit or with a credit for
    // (output, VC) and, on the worm VC, the output's worm VC free for a head flit or held
    // by this input for a body flit.
    always_comb begin
      credit = 1'b0;
      worm_ok = (v != 0);
      for (int o = 0; o < NumPorts; o++) begin
        if (head_out[v] == PortW'(o)) begin
          credit = credit_ok_i[o * NumVcs + v];
          if (v == 0) begin
            worm_ok = head_flit[v][FlitW-1] ? owner_free_i[o] : owner_mine_i[o];
          end
        end
      end
      eligible[v] = head_ready[v] &&
                    ((head_out[v] == meshsync_pkg::OutConsume) || (credit && worm_ok));
    end
  end

  // Only the top bits of the stored count of the worm VC can differ from the sync VCs.
  if (WormCntW < CntW) begin : gen_unused_cnt
    logic unused_push_cnt;
    assign unused_push_cnt = ^push_cnt[CntW-1:WormCntW];
  end

  meshsync_input_arbiter u_arbiter (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .eligible_i  (eligible),
    .pop_i       (gnt_i),
    .sel_valid_o (sel_valid),
    .sel_vc_o    (sel_vc)
  );

  assign req_valid_o = sel_valid;
  assign req_vc_o = sel_vc;
  assign req_flit_o = head_flit[sel_vc];
  assign req_out_o = head_out[sel_vc];
  assign req_consume_o = sel_valid && (head_out[sel_vc] == meshsync_pkg::OutConsume);

  assign idle_o = &empty;
  assign error_o = vc_error || (|overflow);

endmodule

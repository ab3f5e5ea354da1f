// The output side of the router: per link the credit counters of its VCs, per output the
// VC owners and (more than one unicast VC) the VC allocator; what the flits leaving this
// cycle change in them. It says which (output, VC) has a credit, which outputs have room
// for a tree claim, to each input (and the emitter) which VCs are free or its own, and
// which unicast VC a worm head leaving on each output would take.
module meshsync_output_unit #(
  /// Inputs: the five ports and an all-port NI's injection channels 1-3.
  parameter int unsigned NumIn = meshsync_pkg::NumPorts,
  /// Outputs: the five ports and an all-port NI's ejection outputs.
  parameter int unsigned NumOut = meshsync_pkg::NumPorts,
  /// NI channels (1: one-port; 4: all-port, link inputs eject on their own output).
  parameter int unsigned NiPorts = 1,
  /// Downstream worm VC buffer depth (VC 0 and VC 3).
  parameter int unsigned BufferDepth = 16,
  /// Downstream sync VC buffer depth (VC 1 and VC 2).
  parameter int unsigned SyncBufferDepth = 4,
  /// Downstream tree VC buffer depth (VC 4); 0: no tree VC.
  parameter int unsigned TreeBufferDepth = 66,
  /// The snake VC (VC 3) of multidestination worms exists.
  parameter bit PathWorms = 1'b1,
  /// Width of a grant index.
  parameter int unsigned IdxW = 3,
  /// Width of the claimant's index.
  parameter int unsigned InW = 3,
  /// Unicast VCs (VC 0 and VCs 5..) and how a head takes one (meshsync_vc_allocator).
  parameter int unsigned UnicastVcs = 1,
  parameter int unsigned VcAllocation = 0,
  /// VCs and the bits of a VC number (derived; do not set).
  parameter int unsigned NumVcs = meshsync_pkg::ClassVcs + UnicastVcs - 1,
  parameter int unsigned VcW = meshsync_pkg::vc_width(NumVcs)
) (
  input  logic                                                   clk_i,
  input  logic                                                   rst_ni,
  // Credits from downstream, bit p*NumVcs+v (the Local bits are unused).
  input  logic [meshsync_pkg::NumPorts*NumVcs-1:0]               credit_in_i,
  // This cycle's flits out: valid, VC, tail bit, and whose (an input, or NumIn: the
  // emitter).
  input  logic [NumOut-1:0]                                      out_valid_i,
  input  logic [NumOut*VcW-1:0]                                  out_vc_i,
  input  logic [NumOut-1:0]                                      out_tail_i,
  input  logic [NumOut*IdxW-1:0]                                 out_idx_i,
  // This cycle's tree claim.
  input  logic [NumOut-1:0]                                      claim_ok_i,
  input  logic [InW-1:0]                                         claim_idx_i,
  // Per output port o and VC v (bit o*NumVcs+v): a credit is available, or o is Local.
  output logic [meshsync_pkg::NumPorts*NumVcs-1:0]               credit_ok_o,
  // Per output: a tree head may claim it (tree VC free, buffer behind empty; NI outputs:
  // no buffer behind).
  output logic [NumOut-1:0]                                      tree_room_o,
  // Per input: the VC owners in its view (meshsync_vc_owners).
  output logic [NumIn*meshsync_pkg::NumPorts*NumVcs-1:0]         in_owner_free_o,
  output logic [NumIn*meshsync_pkg::NumPorts*NumVcs-1:0]         in_owner_mine_o,
  // Per input, per port p of its view (port 0: its NI output): a worm head leaving on p
  // now has a unicast VC (free, with a credit), and which (VC allocation).
  output logic [NumIn*meshsync_pkg::NumPorts-1:0]                in_alloc_ok_o,
  output logic [NumIn*meshsync_pkg::NumPorts*VcW-1:0]            in_alloc_vc_o,
  // The emitter's view of the five ports' sync VCs (bit o*2 + VC - 1): free / held by it.
  output logic [meshsync_pkg::NumPorts*2-1:0]                    em_owner_free_o,
  output logic [meshsync_pkg::NumPorts*2-1:0]                    em_owner_mine_o,
  // More credits returned than a downstream buffer holds.
  output logic                                                   error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned TreeVc = 32'(meshsync_pkg::VcTree);
  localparam int unsigned LaneCountW = $clog2(BufferDepth + 1);

  // Each output's VC, unpacked (Yosys 0.23 takes no array ports).
  logic [VcW-1:0] out_vc [NumOut];
  for (genvar o = 0; o < NumOut; o++) begin : gen_unpack_vc
    assign out_vc[o] = out_vc_i[o*VcW +: VcW];
  end

  // ---------------------------------------------------------------------------------------
  // Credits of the links (the NI always accepts: Local has no counters)
  // ---------------------------------------------------------------------------------------
  // Per link: the buffer behind its tree VC is empty (every credit back).
  logic [NumPorts-1:1] tree_empty;
  logic [NumPorts-1:0] credit_error;
  // Per output: its unicast VCs' credits (0 at the NI outputs, which need none).
  logic [UnicastVcs*LaneCountW-1:0] lane_count [NumOut];
  for (genvar o = 0; o < NumOut; o++) begin : gen_ni_lane_count
    if (o == 0 || o >= NumPorts) begin : gen_ni
      assign lane_count[o] = '0;
    end
  end

  assign credit_ok_o[NumVcs-1:0] = '1;
  assign credit_error[0] = 1'b0;
  for (genvar o = 1; o < NumPorts; o++) begin : gen_credits
    logic [NumVcs-1:0] send, empty;
    for (genvar v = 0; v < NumVcs; v++) begin : gen_send
      assign send[v] = out_valid_i[o] && (out_vc[o] == VcW'(v));
    end
    meshsync_credit_counters #(
      .BufferDepth     (BufferDepth),
      .SyncBufferDepth (SyncBufferDepth),
      .TreeBufferDepth (TreeBufferDepth),
      .PathWorms       (PathWorms),
      .UnicastVcs      (UnicastVcs)
    ) u_credits (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .credit_in_i  (credit_in_i[o*NumVcs +: NumVcs]),
      .send_i       (send),
      .credit_ok_o  (credit_ok_o[o*NumVcs +: NumVcs]),
      .empty_o      (empty),
      .lane_count_o (lane_count[o]),
      .error_o      (credit_error[o])
    );
    assign tree_empty[o] = empty[TreeVc];
    // A tree claim reads only the tree VC's empty flag.
    logic unused_empty;
    assign unused_empty = ^empty;
  end
  assign error_o = |credit_error;

  // ---------------------------------------------------------------------------------------
  // VC owners
  // ---------------------------------------------------------------------------------------
  logic [NumOut-1:0] tree_free;
  logic [NumOut*NumVcs-1:0] owner_free;

  meshsync_vc_owners #(
    .NumIn   (NumIn),
    .NumOut  (NumOut),
    .NiPorts (NiPorts),
    .IdxW    (IdxW),
    .InW     (InW),
    .NumVcs  (NumVcs),
    .VcW     (VcW)
  ) u_owners (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .claim_ok_i   (claim_ok_i),
    .claim_idx_i  (claim_idx_i),
    .leave_i      (out_valid_i),
    .leave_vc_i   (out_vc_i),
    .leave_tail_i (out_tail_i),
    .leave_idx_i  (out_idx_i),
    .tree_free_o  (tree_free),
    .in_free_o    (in_owner_free_o),
    .in_mine_o    (in_owner_mine_o),
    .em_free_o    (em_owner_free_o),
    .em_mine_o    (em_owner_mine_o),
    .free_o       (owner_free)
  );

  // ---------------------------------------------------------------------------------------
  // VC allocation: per output, the unicast VC a worm head leaving there takes
  // ---------------------------------------------------------------------------------------
  logic [NumOut-1:0] alloc_ok;
  logic [VcW-1:0] alloc_vc [NumOut];
  for (genvar o = 0; o < NumOut; o++) begin : gen_vc_allocation
    // The NI outputs need no credit.
    localparam bit Link = (o >= 1 && o < NumPorts);
    logic [UnicastVcs-1:0] lane_free, lane_credit;
    for (genvar l = 0; l < UnicastVcs; l++) begin : gen_lane
      localparam int unsigned Vc = meshsync_pkg::unicast_vc(l);
      assign lane_free[l] = owner_free[meshsync_pkg::owner_slot(o, meshsync_pkg::vc_owner(Vc), NumVcs)];
      if (Link) begin : gen_link
        assign lane_credit[l] = credit_ok_o[o*NumVcs + Vc];
      end else begin : gen_ni
        assign lane_credit[l] = 1'b1;
      end
    end
    if (UnicastVcs == 1) begin : gen_one_lane
      assign alloc_ok[o] = lane_free[0] && lane_credit[0];
      assign alloc_vc[o] = VcW'(meshsync_pkg::VcWorm);
      logic unused_count;
      assign unused_count = ^lane_count[o];
    end else begin : gen_lanes
      localparam int unsigned LaneW = $clog2(UnicastVcs);
      logic [LaneW-1:0] lane, leave_lane;
      logic leave_unicast;
      // A flit leaving on a unicast VC that was free moves the round-robin pointer.
      always_comb begin
        leave_unicast = 1'b0;
        leave_lane = '0;
        for (int l = 0; l < UnicastVcs; l++) begin
          if (out_vc[o] == VcW'(meshsync_pkg::unicast_vc(l))) begin
            leave_unicast = out_valid_i[o] && lane_free[l];
            leave_lane = LaneW'(l);
          end
        end
      end
      meshsync_vc_allocator #(
        .UnicastVcs   (UnicastVcs),
        .VcAllocation (VcAllocation),
        .LaneCountW   (LaneCountW)
      ) u_vc_allocator (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .free_i       (lane_free),
        .credit_i     (lane_credit),
        .count_i      (lane_count[o]),
        .leave_i      (leave_unicast),
        .leave_lane_i (leave_lane),
        .valid_o      (alloc_ok[o]),
        .lane_o       (lane)
      );
      always_comb begin
        alloc_vc[o] = '0;
        for (int l = 0; l < UnicastVcs; l++) begin
          if (lane == LaneW'(l)) alloc_vc[o] = VcW'(meshsync_pkg::unicast_vc(l));
        end
      end
    end
  end

  // Each input's view: port 0 is its NI output.
  for (genvar i = 0; i < NumIn; i++) begin : gen_alloc_view
    for (genvar p = 0; p < NumPorts; p++) begin : gen_port
      localparam int unsigned O = (p == 0) ? meshsync_pkg::eject_of(i, NiPorts) : p;
      assign in_alloc_ok_o[i*NumPorts + p] = alloc_ok[O];
      assign in_alloc_vc_o[(i*NumPorts + p)*VcW +: VcW] = alloc_vc[O];
    end
  end

  for (genvar o = 0; o < NumOut; o++) begin : gen_tree_room
    if (o == 0 || o >= NumPorts) begin : gen_ni
      assign tree_room_o[o] = tree_free[o];
    end else begin : gen_link
      assign tree_room_o[o] = tree_free[o] && tree_empty[o];
    end
  end

  // Local has no counters.
  logic unused_credits;
  assign unused_credits = ^credit_in_i[NumVcs-1:0];

endmodule

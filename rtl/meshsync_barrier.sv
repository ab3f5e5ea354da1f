// The barrier hardware of one router (contract steps 5 and 6): the register file, the
// barrier unit, the staged emitter and, with ReduceWords > 0, the reduction lanes; without
// registers (NumRegs = 0) only the unit's round robin, which takes setup and teardown at
// the end of their path. meshsync_router sees one block: the five ports' requests for the
// unit in, which inputs it took, the registers' state for the arrivals' CAM lookups and
// the tree claim out, the software register port, and the emitter's offers per port.
module meshsync_barrier #(
  parameter int unsigned FlitW = 32,
  /// Barrier registers; 0: none (the state outputs are 0, one slot wide).
  parameter int unsigned NumRegs = 4,
  parameter int unsigned MaxChildren = 4,
  parameter int unsigned CoordXW = 3,
  parameter int unsigned CoordYW = 3,
  parameter int unsigned NumChildrenW = $clog2(MaxChildren + 2),
  parameter int unsigned ArrivedW = $clog2(MaxChildren + 1),
  /// Width of a buffered flit's countdown (the router's max(Trn, Trm)).
  parameter int unsigned CntW = 5,
  parameter int unsigned ReduceWords = 0,
  /// Width of a register's CS path count (one per other node of the mesh).
  parameter int unsigned PathRefsW = 6,
  /// Register slots of the state outputs (NumRegs, at least 1; derived).
  parameter int unsigned RegSlots = (NumRegs > 0) ? NumRegs : 1
) (
  input  logic                                                   clk_i,
  input  logic                                                   rst_ni,
  // The router's coordinates (sampled at reset).
  input  logic [CoordXW-1:0]                                     here_x_i,
  input  logic [CoordYW-1:0]                                     here_y_i,
  // Per port (the five ports; injection channels 1-3 carry no sync message): its request
  // is for the unit (valid and consume), a CS setup/teardown, its flit, VC and countdown.
  input  logic [meshsync_pkg::NumPorts-1:0]                      consume_i,
  input  logic [meshsync_pkg::NumPorts-1:0]                      cs_i,
  input  logic [meshsync_pkg::NumPorts*FlitW-1:0]                flit_i,
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::ClassVcW-1:0]    vc_i,
  input  logic [meshsync_pkg::NumPorts*CntW-1:0]                 cnt_i,
  // The unit's answer per port: taken, relabelled for the NI, a CS entry updated.
  output logic [meshsync_pkg::NumPorts-1:0]                      take_o,
  output logic [meshsync_pkg::NumPorts-1:0]                      relabel_o,
  output logic [meshsync_pkg::NumPorts-1:0]                      cs_done_o,
  // The software register port (the router's reg_* ports as one request, and the children).
  input  meshsync_pkg::reg_req_t                                 reg_req_i,
  input  logic [MaxChildren*CoordXW-1:0]                         reg_child_x_i,
  input  logic [MaxChildren*CoordYW-1:0]                         reg_child_y_i,
  input  logic [MaxChildren-1:0]                                 reg_child_route_i,
  output logic                                                   reg_ok_o,
  // The registers' state (0 without registers).
  output logic [RegSlots-1:0]                                    reg_valid_o,
  output logic [RegSlots-1:0]                                    reg_member_o,
  output logic [RegSlots-1:0]                                    reg_transit_o,
  output logic [RegSlots*meshsync_pkg::GidW-1:0]                 reg_gid_o,
  output logic [RegSlots*NumChildrenW-1:0]                       reg_num_children_o,
  output logic [RegSlots*MaxChildren*CoordXW-1:0]                reg_child_x_o,
  output logic [RegSlots*MaxChildren*CoordYW-1:0]                reg_child_y_o,
  output logic [RegSlots*MaxChildren-1:0]                        reg_child_route_o,
  // The emitter: per port a message offered, its grant; what it needs to offer.
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::ClassVcs-1:0] credit_ok_i,
  input  logic [meshsync_pkg::NumPorts*2-1:0]                    owner_free_i,
  input  logic [meshsync_pkg::NumPorts*2-1:0]                    owner_mine_i,
  output logic [meshsync_pkg::NumPorts-1:0]                      offer_o,
  output logic [meshsync_pkg::NumPorts*FlitW-1:0]                offer_flit_o,
  output logic [meshsync_pkg::NumPorts*meshsync_pkg::ClassVcW-1:0]    offer_vc_o,
  input  logic [meshsync_pkg::NumPorts-1:0]                      offer_gnt_i,
  // No batch pending or being sent, no reduction head counting down.
  output logic                                                   idle_o,
  output logic                                                   error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1;
  // A word's and a half-word's index in a reduction lane (as the emitter and the lanes
  // size them).
  localparam int unsigned WordW = (ReduceWords > 1) ? $clog2(ReduceWords) : 1;
  localparam int unsigned HalfW = WordW + 1;

  // The children take the ports of the same name as they are (`.name`); the wires below
  // join them. Their buses stay flat vectors, as the children's ports (Yosys 0.23 has no
  // array ports).
  if (NumRegs > 0) begin : gen_barrier
    // The register file's fields that only the unit and the emitter read, its writes, and
    // the reduction state between it and the unit (flags_bu, arrived_bu: after the unit).
    logic [NumRegs-1:0] parent_valid, route, written;
    logic [NumRegs*CoordXW-1:0] parent_x;
    logic [NumRegs*CoordYW-1:0] parent_y;
    logic [NumRegs*meshsync_pkg::DataW-1:0] slot;
    logic [NumRegs*meshsync_pkg::NumSlots-1:0] flags_q, flags_bu;
    logic [NumRegs*ArrivedW-1:0] arrived_q, arrived_bu;
    // The unit's CS update for the register file, and its batches for the emitter.
    logic cs_valid, cs_setup;
    logic [GidW-1:0] cs_gid;
    logic batch_push, batch_push_release;
    logic [RegW-1:0] batch_push_reg;
    logic [NumRegs-1:0] batch_due, batch_load, emitting;
    logic unit_error, unit_idle, regfile_error, emitter_idle, emitter_error;
    // In-network reduction: the registers' epochs, the unit's half-word writes, the
    // emitter's fold and streams through the lanes.
    logic [NumRegs-1:0] red;
    logic [NumRegs*meshsync_pkg::DescW-1:0] desc;
    logic [NumRegs*meshsync_pkg::NumSlots-1:0] operands;
    logic lane_valid, fold_valid, fold_wide;
    logic [RegW-1:0] lane_reg, lane_held;
    logic [2:0] lane_idx, rd_lane_a, rd_lane_b;
    logic [HalfW-1:0] lane_half;
    logic [15:0] lane_data;
    logic [WordW-1:0] rd_word, fold_word;
    logic [63:0] rd_a, rd_b, fold_data;
    logic [NumPorts*HalfW-1:0] st_half;
    logic [NumPorts*16-1:0] st_data;

    meshsync_barrier_unit #(
      .FlitW        (FlitW),
      .NumRegs      (NumRegs),
      .NumChildrenW (NumChildrenW),
      .ArrivedW     (ArrivedW),
      .CntW         (CntW),
      .ReduceWords  (ReduceWords)
    ) u_unit (
      .clk_i,
      .rst_ni,
      .consume_i,
      .cs_i,
      .flit_i,
      .vc_i,
      .cnt_i,
      .take_o,
      .relabel_o,
      .cs_done_o,
      .cs_valid_o           (cs_valid),
      .cs_setup_o           (cs_setup),
      .cs_gid_o             (cs_gid),
      .valid_i              (reg_valid_o),
      .member_i             (reg_member_o),
      .transit_i            (reg_transit_o),
      .parent_valid_i       (parent_valid),
      .gid_i                (reg_gid_o),
      .num_children_i       (reg_num_children_o),
      .flags_i              (flags_q),
      .arrived_i            (arrived_q),
      .flags_o              (flags_bu),
      .arrived_o            (arrived_bu),
      .red_o                (red),
      .desc_o               (desc),
      .operands_o           (operands),
      .lane_valid_o         (lane_valid),
      .lane_reg_o           (lane_reg),
      .lane_o               (lane_idx),
      .lane_half_o          (lane_half),
      .lane_data_o          (lane_data),
      .batch_push_o         (batch_push),
      .batch_push_reg_o     (batch_push_reg),
      .batch_push_release_o (batch_push_release),
      .batch_due_o          (batch_due),
      .batch_load_i         (batch_load),
      .emitting_i           (emitting),
      .written_i            (written),
      .idle_o               (unit_idle),
      .error_o              (unit_error)
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
      .clk_i,
      .rst_ni,
      .flags_i           (flags_bu),
      .arrived_i         (arrived_bu),
      .cs_valid_i        (cs_valid),
      .cs_setup_i        (cs_setup),
      .cs_gid_i          (cs_gid),
      .reg_i             (reg_req_i),
      .reg_child_x_i,
      .reg_child_y_i,
      .reg_child_route_i,
      .reg_ok_o,
      .written_o         (written),
      .valid_o           (reg_valid_o),
      .member_o          (reg_member_o),
      .transit_o         (reg_transit_o),
      .gid_o             (reg_gid_o),
      .parent_valid_o    (parent_valid),
      .parent_x_o        (parent_x),
      .parent_y_o        (parent_y),
      .route_o           (route),
      .slot_o            (slot),
      .num_children_o    (reg_num_children_o),
      .child_x_o         (reg_child_x_o),
      .child_y_o         (reg_child_y_o),
      .child_route_o     (reg_child_route_o),
      .flags_o           (flags_q),
      .arrived_o         (arrived_q),
      .error_o           (regfile_error)
    );

    meshsync_barrier_emitter #(
      .FlitW        (FlitW),
      .NumRegs      (NumRegs),
      .MaxChildren  (MaxChildren),
      .CoordXW      (CoordXW),
      .CoordYW      (CoordYW),
      .NumChildrenW (NumChildrenW),
      .ReduceWords  (ReduceWords)
    ) u_emitter (
      .clk_i,
      .rst_ni,
      .here_x_i,
      .here_y_i,
      .push_i          (batch_push),
      .push_reg_i      (batch_push_reg),
      .push_release_i  (batch_push_release),
      .batch_due_i     (batch_due),
      .batch_load_o    (batch_load),
      .emitting_o      (emitting),
      .gid_i           (reg_gid_o),
      .parent_valid_i  (parent_valid),
      .parent_x_i      (parent_x),
      .parent_y_i      (parent_y),
      .route_i         (route),
      .slot_i          (slot),
      .num_children_i  (reg_num_children_o),
      .child_x_i       (reg_child_x_o),
      .child_y_i       (reg_child_y_o),
      .child_route_i   (reg_child_route_o),
      .red_i           (red),
      .desc_i          (desc),
      .operands_i      (operands),
      .lane_reg_o      (lane_held),
      .rd_lane_a_o     (rd_lane_a),
      .rd_lane_b_o     (rd_lane_b),
      .rd_word_o       (rd_word),
      .rd_a_i          (rd_a),
      .rd_b_i          (rd_b),
      .fold_valid_o    (fold_valid),
      .fold_wide_o     (fold_wide),
      .fold_word_o     (fold_word),
      .fold_data_o     (fold_data),
      .st_half_o       (st_half),
      .st_data_i       (st_data),
      .written_i       (written),
      .credit_ok_i,
      .owner_free_i,
      .owner_mine_i,
      .offer_o,
      .offer_flit_o,
      .offer_vc_o,
      .grant_i         (offer_gnt_i),
      .idle_o          (emitter_idle),
      .error_o         (emitter_error)
    );

    if (ReduceWords > 0) begin : gen_lanes
      // The unit's one half-word write is the lanes' write port 0 (WritePorts = 1: the
      // other ports' bits are zero and unused).
      meshsync_reduction_lanes #(
        .NumRegs     (NumRegs),
        .ReduceWords (ReduceWords)
      ) u_lanes (
        .clk_i,
        .hw_valid_i   (NumPorts'(lane_valid)),
        .hw_reg_i     ((NumPorts*RegW)'(lane_reg)),
        .hw_lane_i    ((NumPorts*3)'(lane_idx)),
        .hw_half_i    ((NumPorts*HalfW)'(lane_half)),
        .hw_data_i    ((NumPorts*16)'(lane_data)),
        .reg_i        (lane_held),
        .fold_valid_i (fold_valid),
        .fold_wide_i  (fold_wide),
        .fold_word_i  (fold_word),
        .fold_data_i  (fold_data),
        .rd_lane_a_i  (rd_lane_a),
        .rd_lane_b_i  (rd_lane_b),
        .rd_word_i    (rd_word),
        .rd_a_o       (rd_a),
        .rd_b_o       (rd_b),
        .st_half_i    (st_half),
        .st_data_o    (st_data)
      );
    end else begin : gen_no_lanes
      // No lanes: the unit refuses every reduction message, so nothing reads or writes.
      assign rd_a = '0;
      assign rd_b = '0;
      assign st_data = '0;
      logic unused_lanes;
      assign unused_lanes = ^{lane_valid, lane_reg, lane_idx, lane_half, lane_data, fold_valid, fold_wide,
                             fold_word, fold_data, rd_lane_a, rd_lane_b, rd_word, st_half, lane_held};
    end

    assign error_o = unit_error || regfile_error || emitter_error;
    assign idle_o = unit_idle && emitter_idle;

  end else begin : gen_no_barrier
    // Setup and teardown still end their paths here (taken without effect); nothing else
    // is taken, since no register can be a member.
    assign reg_valid_o = '0;
    assign reg_member_o = '0;
    assign reg_transit_o = '0;
    assign reg_gid_o = '0;
    assign reg_num_children_o = '0;
    assign reg_child_x_o = '0;
    assign reg_child_y_o = '0;
    assign reg_child_route_o = '0;
    // The barrier unit's one message per cycle, round robin: here only setup/teardown,
    // at the end of their path (taken) or passing through (seen; no register to update).
    logic [$clog2(NumPorts)-1:0] unit_sel;
    logic unit_valid;
    meshsync_rr_arbiter #(
      .NumReq (NumPorts)
    ) u_unit_pick (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_i       (consume_i),
      .keep_i      (1'b1),
      .gnt_valid_o (unit_valid),
      .gnt_idx_o   (unit_sel)
    );
    always_comb begin
      take_o = '0;
      cs_done_o = '0;
      if (unit_valid) begin
        take_o[unit_sel] = !cs_i[unit_sel];
        cs_done_o[unit_sel] = cs_i[unit_sel];
      end
    end
    assign relabel_o = '0;
    assign offer_o = '0;
    assign offer_flit_o = '0;
    assign offer_vc_o = '0;
    assign reg_ok_o = 1'b0;
    assign error_o = 1'b0;
    assign idle_o = 1'b1;
    logic unused_barrier;
    assign unused_barrier = ^{offer_gnt_i, cnt_i, reg_req_i, owner_free_i, owner_mine_i, vc_i, flit_i, here_x_i, here_y_i, credit_ok_i, reg_child_x_i, reg_child_y_i,
                              reg_child_route_i};
  end

endmodule

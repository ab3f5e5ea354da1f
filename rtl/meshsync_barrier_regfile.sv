// The barrier register file: a CAM of NumRegs entries matched by GID (the paper's Fig. 2
// plus the CS fields, barrier_register.cpp). It holds the entries and applies, at the
// clock edge and in the model's order:
//   1. the reduction state (flags, arrived) left by this cycle's barrier unit,
//   2. the CS setup / teardown passing through that the barrier unit took this cycle
//      (setup: find-or-allocate and open a transit entry; teardown: close it),
//   3. the software port (program: find-or-allocate; free: unprogram a member entry).
// Arrival processing looks GIDs up in the current state (the registers as they are at the
// start of the arrival cycle), never in the next one.
`include "meshsync_assert.svh"

module meshsync_barrier_regfile #(
  /// Barrier registers (>= 1; a router without registers has no register file).
  parameter int unsigned NumRegs = 4,
  /// Children one register holds (BTM needs 4).
  parameter int unsigned MaxChildren = 8,
  /// Bits of an x coordinate (log2 of the mesh width).
  parameter int unsigned CoordXW = 3,
  /// Bits of a y coordinate (log2 of the mesh height).
  parameter int unsigned CoordYW = 3,
  /// Width of a child count: holds MaxChildren + 1, so that "too many" is visible.
  parameter int unsigned NumChildrenW = $clog2(MaxChildren + 2),
  /// Width of the arrival counter (0 .. MaxChildren).
  parameter int unsigned ArrivedW = $clog2(MaxChildren + 1),
  /// Width of the CS path reference count: a router is crossed by at most one path per
  /// other node of the mesh.
  parameter int unsigned PathRefsW = 8
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // Reduction state after this cycle's barrier unit.
  input  logic [NumRegs*meshsync_pkg::NumSlots-1:0] flags_i,
  input  logic [NumRegs*ArrivedW-1:0]               arrived_i,
  // The CS transit update of a setup (cs_setup_i = 1) or teardown passing through.
  input  logic                                      cs_valid_i,
  input  logic                                      cs_setup_i,
  input  logic [meshsync_pkg::GidW-1:0]             cs_gid_i,
  // Software port: the request, and its children (child j at j*CoordXW +: CoordXW).
  input  meshsync_pkg::reg_req_t                    reg_i,
  input  logic [MaxChildren*CoordXW-1:0]            reg_child_x_i,
  input  logic [MaxChildren*CoordYW-1:0]            reg_child_y_i,
  input  logic [MaxChildren-1:0]                    reg_child_route_i,
  output logic                                      reg_ok_o,
  // The software port rewrites register k at this edge (program, or free of a member).
  output logic [NumRegs-1:0]                        written_o,
  // Current state.
  output logic [NumRegs-1:0]                        valid_o,
  output logic [NumRegs-1:0]                        member_o,
  output logic [NumRegs-1:0]                        transit_o,
  output logic [NumRegs*meshsync_pkg::GidW-1:0]     gid_o,
  output logic [NumRegs-1:0]                        parent_valid_o,
  output logic [NumRegs*CoordXW-1:0]                parent_x_o,
  output logic [NumRegs*CoordYW-1:0]                parent_y_o,
  output logic [NumRegs-1:0]                        route_o,
  output logic [NumRegs*meshsync_pkg::DataW-1:0]    slot_o,
  output logic [NumRegs*NumChildrenW-1:0]           num_children_o,
  output logic [NumRegs*MaxChildren*CoordXW-1:0]    child_x_o,
  output logic [NumRegs*MaxChildren*CoordYW-1:0]    child_y_o,
  output logic [NumRegs*MaxChildren-1:0]            child_route_o,
  output logic [NumRegs*meshsync_pkg::NumSlots-1:0] flags_o,
  output logic [NumRegs*ArrivedW-1:0]               arrived_o,
  // A CS path count overflowed.
  output logic                                      error_o
);

  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned NumSlots = meshsync_pkg::NumSlots;
  localparam int unsigned DataW = meshsync_pkg::DataW;

  // The flip-flops. The multi-entry ones stay flat vectors, entry k at k*W +: W (the
  // ports' order): Yosys 0.23 names an unpacked array's flip-flops gid_q[0], gid_q[1], ...,
  // and scripts/rtl-equiv pairs registers by name. The logic reads them by entry through
  // the views below and computes each next state as an unpacked array, packed at the edge.
  logic [NumRegs-1:0] valid_q, valid_d, member_q, member_d, transit_q, transit_d;
  logic [NumRegs*GidW-1:0] gid_q;
  logic [NumRegs*PathRefsW-1:0] refs_q;
  logic [NumRegs*NumSlots-1:0] flags_q;
  logic [NumRegs*ArrivedW-1:0] arrived_q;
  logic [NumRegs-1:0] program_en;
  logic [NumRegs-1:0] parent_valid_q, route_q;
  logic [NumRegs*CoordXW-1:0] parent_x_q;
  logic [NumRegs*CoordYW-1:0] parent_y_q;
  logic [NumRegs*DataW-1:0] slot_q;
  logic [NumRegs*NumChildrenW-1:0] num_children_q;
  logic [NumRegs*MaxChildren*CoordXW-1:0] child_x_q;
  logic [NumRegs*MaxChildren*CoordYW-1:0] child_y_q;
  logic [NumRegs*MaxChildren-1:0] child_route_q;

  // By entry: the state (gid, refs), the unit's reduction state (flags_i, arrived_i), and
  // the next state.
  logic [GidW-1:0] gid [NumRegs], gid_d [NumRegs];
  logic [PathRefsW-1:0] refs [NumRegs], refs_d [NumRegs];
  logic [NumSlots-1:0] flags_bu [NumRegs], flags_d [NumRegs];
  logic [ArrivedW-1:0] arrived_bu [NumRegs], arrived_d [NumRegs];
  for (genvar k = 0; k < NumRegs; k++) begin : gen_entry
    assign gid[k] = gid_q[k*GidW +: GidW];
    assign refs[k] = refs_q[k*PathRefsW +: PathRefsW];
    assign flags_bu[k] = flags_i[k*NumSlots +: NumSlots];
    assign arrived_bu[k] = arrived_i[k*ArrivedW +: ArrivedW];
  end

  // The entry that `hit` found among the valid ones, else the lowest free entry (one-hot,
  // zero if none): the model's find_or_allocate.
  function automatic logic [NumRegs-1:0] find_or_allocate(
    input logic [NumRegs-1:0] hit,
    input logic [NumRegs-1:0] valid
  );
    logic [NumRegs-1:0] lowest_free;
    logic found_free;
    found_free = 1'b0;
    for (int k = 0; k < NumRegs; k++) begin
      lowest_free[k] = !valid[k] && !found_free;
      if (!valid[k]) found_free = 1'b1;
    end
    find_or_allocate = (|hit) ? hit : lowest_free;
  endfunction

  // ---------------------------------------------------------------------------------------
  // The CS path message the barrier unit took this cycle (state: q -> cs)
  // ---------------------------------------------------------------------------------------
  logic [NumRegs-1:0] cs_hit, cs_alloc;
  logic [NumRegs-1:0] valid_cs, member_cs, transit_cs;
  logic [GidW-1:0] gid_cs [NumRegs];
  logic [PathRefsW-1:0] refs_cs [NumRegs];
  // gid_cs packed for the software port's CAM.
  logic [NumRegs*GidW-1:0] gid_cs_flat;
  // A setup would overflow entry k's path count.
  logic [NumRegs-1:0] refs_overflow;

  meshsync_group_cam #(
    .NumRegs (NumRegs)
  ) u_cs_cam (
    .valid_i (valid_q),
    .gid_i   (gid_q),
    .key_i   (cs_gid_i),
    .hit_o   (cs_hit)
  );
  assign cs_alloc = find_or_allocate(cs_hit, valid_q);

  always_comb begin
    valid_cs = valid_q;
    member_cs = member_q;
    transit_cs = transit_q;
    refs_overflow = '0;
    for (int k = 0; k < NumRegs; k++) begin
      gid_cs[k] = gid[k];
      refs_cs[k] = refs[k];
      if (cs_valid_i && cs_setup_i && cs_alloc[k]) begin
        // open_transit: a free entry becomes a nonmember CS entry of this GID.
        // (Its flags and count are already clear: only members count arrivals, and
        // freeing a member clears them.)
        if (!valid_q[k]) begin
          valid_cs[k] = 1'b1;
          member_cs[k] = 1'b0;
          gid_cs[k] = cs_gid_i;
        end
        transit_cs[k] = 1'b1;
        if (&refs[k]) begin
          refs_overflow[k] = 1'b1;
        end else begin
          refs_cs[k] = refs[k] + 1'b1;
        end
      end
      if (cs_valid_i && !cs_setup_i && cs_hit[k]) begin
        // close_transit: the last path gone frees a nonmember entry.
        if (refs[k] != '0) begin
          refs_cs[k] = refs[k] - 1'b1;
        end
        if ((refs[k] <= PathRefsW'(1)) && !member_q[k]) begin
          valid_cs[k] = 1'b0;
          transit_cs[k] = 1'b0;
        end
      end
    end
  end

  for (genvar k = 0; k < NumRegs; k++) begin : gen_cs_flat
    assign gid_cs_flat[k*GidW +: GidW] = gid_cs[k];
  end

  // ---------------------------------------------------------------------------------------
  // Software port, after everything the hardware did this cycle (state: cs -> d)
  // ---------------------------------------------------------------------------------------
  logic [NumRegs-1:0] sw_hit, sw_alloc;
  logic fits;

  meshsync_group_cam #(
    .NumRegs (NumRegs)
  ) u_sw_cam (
    .valid_i (valid_cs),
    .gid_i   (gid_cs_flat),
    .key_i   (reg_i.gid),
    .hit_o   (sw_hit)
  );
  assign sw_alloc = find_or_allocate(sw_hit, valid_cs);
  // A member with more children than a register holds stays in node memory.
  assign fits = reg_i.num_children <= meshsync_pkg::ChildCountW'(MaxChildren);

  always_comb begin
    valid_d = valid_cs;
    member_d = member_cs;
    transit_d = transit_cs;
    for (int k = 0; k < NumRegs; k++) begin
      gid_d[k] = gid_cs[k];
      refs_d[k] = refs_cs[k];
      flags_d[k] = flags_bu[k];
      arrived_d[k] = arrived_bu[k];
    end
    reg_ok_o = 1'b0;
    program_en = '0;
    written_o = '0;
    case (reg_i.op)
      meshsync_pkg::RegOpProgram: begin
        if (fits && (|sw_alloc)) begin
          reg_ok_o = 1'b1;
          program_en = sw_alloc;
        end
      end
      meshsync_pkg::RegOpFree: begin
        reg_ok_o = |(sw_hit & member_cs);
        for (int k = 0; k < NumRegs; k++) begin
          if (sw_hit[k] && member_cs[k]) begin
            written_o[k] = 1'b1;
            // unprogram: the entry stays valid while CS paths still cross it.
            member_d[k] = 1'b0;
            flags_d[k] = '0;
            arrived_d[k] = '0;
            if (refs_cs[k] == '0) begin
              valid_d[k] = 1'b0;
              transit_d[k] = 1'b0;
            end
          end
        end
      end
      default: begin
      end
    endcase
    for (int k = 0; k < NumRegs; k++) begin
      if (program_en[k]) begin
        written_o[k] = 1'b1;
        valid_d[k] = 1'b1;
        member_d[k] = 1'b1;
        transit_d[k] = reg_i.transit;
        gid_d[k] = reg_i.gid;
        flags_d[k] = '0;
        arrived_d[k] = '0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      member_q <= '0;
      transit_q <= '0;
      gid_q <= '0;
      refs_q <= '0;
      flags_q <= '0;
      arrived_q <= '0;
    end else begin
      valid_q <= valid_d;
      member_q <= member_d;
      transit_q <= transit_d;
      for (int k = 0; k < NumRegs; k++) begin
        gid_q[k*GidW +: GidW] <= gid_d[k];
        refs_q[k*PathRefsW +: PathRefsW] <= refs_d[k];
        flags_q[k*NumSlots +: NumSlots] <= flags_d[k];
        arrived_q[k*ArrivedW +: ArrivedW] <= arrived_d[k];
      end
    end
  end

  // What software wrote, straight into entry k's place in the flat flip-flops (the output
  // ports). Only read while the entry is a member (and copied into the outbox when a
  // message is created), so it needs no reset and is not cleared on free.
  for (genvar k = 0; k < NumRegs; k++) begin : gen_fields
    always_ff @(posedge clk_i) begin
      if (program_en[k]) begin
        parent_valid_q[k] <= reg_i.parent_valid;
        parent_x_q[k*CoordXW +: CoordXW] <= CoordXW'(reg_i.parent_x);
        parent_y_q[k*CoordYW +: CoordYW] <= CoordYW'(reg_i.parent_y);
        route_q[k] <= reg_i.route;
        slot_q[k*DataW +: DataW] <= reg_i.slot;
        // Programmed only when the count fits (<= MaxChildren): no bit is lost.
        num_children_q[k*NumChildrenW +: NumChildrenW] <= NumChildrenW'(reg_i.num_children);
        child_x_q[k*MaxChildren*CoordXW +: MaxChildren*CoordXW] <= reg_child_x_i;
        child_y_q[k*MaxChildren*CoordYW +: MaxChildren*CoordYW] <= reg_child_y_i;
        child_route_q[k*MaxChildren +: MaxChildren] <= reg_child_route_i;
      end
    end
  end

  assign valid_o = valid_q;
  assign parent_valid_o = parent_valid_q;
  assign parent_x_o = parent_x_q;
  assign parent_y_o = parent_y_q;
  assign route_o = route_q;
  assign slot_o = slot_q;
  assign num_children_o = num_children_q;
  assign child_x_o = child_x_q;
  assign child_y_o = child_y_q;
  assign child_route_o = child_route_q;
  assign member_o = member_q;
  assign gid_o = gid_q;
  assign flags_o = flags_q;
  assign arrived_o = arrived_q;
  assign transit_o = transit_q;
  assign error_o = |refs_overflow;

  // The request's coordinates come in the flit's width; the mesh needs fewer bits.
  logic unused_req;
  assign unused_req = ^{reg_i.parent_x, reg_i.parent_y};

  // One valid entry per GID (meshsync_group_cam's hits are one-hot only then, and two
  // would make the register file disagree with the model's find_or_allocate).
  for (genvar a = 0; a < NumRegs; a++) begin : gen_unique_a
    for (genvar b = a + 1; b < NumRegs; b++) begin : gen_unique_b
      `ASSERT(UniqueGid_A, !(valid_q[a] && valid_q[b] && gid[a] == gid[b]),
              ("registers %0d and %0d hold one GID", a, b))
    end
  end

  // Cover points (scripts/coverage): every register valid, a program refused because
  // none is free (the NI keeps the group in software: the overflow to memory) or because
  // the group has more children than a register holds, and a CS path count overflow
  // (error_o).
  `COVER(Full_C, &valid_q)
  `COVER(ProgramRefusedFull_C, (reg_i.op == meshsync_pkg::RegOpProgram) && fits && !(|sw_alloc))
  `COVER(ProgramRefusedChildren_C, (reg_i.op == meshsync_pkg::RegOpProgram) && !fits)
  `COVER(PathCountError_C, |refs_overflow)

`ifdef MESHSYNC_FORMAL_BARRIER_REGFILE
  `include "barrier_regfile.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

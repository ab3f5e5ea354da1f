// VC allocation at one output (docs/microarchitecture.md, "Unicast VCs"): the unicast VC
// a worm head leaving here now takes, among those free (no owner) and with a credit.
// Round robin (VcAllocation 0): the first from the lane after the one last taken here; the
// pointer moves when a flit leaves on a unicast VC that was free, whoever chose it (a
// multidestination worm's head on VC 0 too). Most credits (VcAllocation 1): the one with
// the most credits, the lowest lane on a tie. The answer is the same for every input, so
// it is computed once per output; two heads that want it both request the output, and
// switch allocation lets one through. model/core/router/output_unit.hpp allocate_unicast.
`include "meshsync_assert.svh"

module meshsync_vc_allocator #(
  /// Unicast VCs (lanes) to choose among, >= 2.
  parameter int unsigned UnicastVcs = 2,
  /// 0: round robin; 1: most credits.
  parameter int unsigned VcAllocation = 0,
  /// Bits of a lane's credit count.
  parameter int unsigned LaneCountW = 5,
  /// Bits of a lane number (derived; do not set).
  parameter int unsigned LaneW = $clog2(UnicastVcs)
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // Per lane: its VC at this output is free, has a credit, and how many (most credits).
  input  logic [UnicastVcs-1:0]              free_i,
  input  logic [UnicastVcs-1:0]              credit_i,
  input  logic [UnicastVcs*LaneCountW-1:0]   count_i,
  // A flit leaves on the unicast VC of lane leave_lane_i, which was free (a head takes it).
  input  logic                               leave_i,
  input  logic [LaneW-1:0]                   leave_lane_i,
  // A lane a head may take now, and which.
  output logic                               valid_o,
  output logic [LaneW-1:0]                   lane_o
);

  logic [UnicastVcs-1:0] usable;
  assign usable = free_i & credit_i;

  if (VcAllocation == 0) begin : gen_round_robin
    logic [LaneW-1:0] next_q, unused_next;
    meshsync_rr_pick #(
      .N    (UnicastVcs),
      .IdxW (LaneW)
    ) u_pick (
      .req_i   (usable),
      .start_i (next_q),
      .valid_o (valid_o),
      .idx_o   (lane_o),
      .next_o  (unused_next)
    );
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        next_q <= '0;
      end else if (leave_i) begin
        next_q <= (leave_lane_i == LaneW'(UnicastVcs - 1)) ? '0 : leave_lane_i + 1'b1;
      end
    end
    logic unused_count;
    assign unused_count = ^count_i;
  end else begin : gen_most_credits
    logic [LaneCountW-1:0] best_count;
    always_comb begin
      valid_o = 1'b0;
      lane_o = '0;
      best_count = '0;
      for (int l = 0; l < UnicastVcs; l++) begin
        if (usable[l] && (!valid_o || count_i[l*LaneCountW +: LaneCountW] > best_count)) begin
          valid_o = 1'b1;
          lane_o = LaneW'(l);
          best_count = count_i[l*LaneCountW +: LaneCountW];
        end
      end
    end
    logic unused_leave;
    assign unused_leave = ^{clk_i, rst_ni, leave_i, leave_lane_i};
  end

  // Cover points (scripts/coverage): a head leaves on a unicast VC past VC 0, and a
  // choice passes over a usable VC 0 (the round-robin pointer, or more credits elsewhere).
  `COVER(LaneAfterVc0_C, leave_i && leave_lane_i != '0)
  `COVER(SkipsUsableVc0_C, valid_o && usable[0] && lane_o != '0)

endmodule

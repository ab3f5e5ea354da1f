// Credit counters of one non-Local output port, one per VC. Each starts at the depth of
// the downstream buffer of its class; a credit presented in cycle k-1 is counted at the
// edge and usable in cycle k, a flit sent in cycle c takes one at the edge after c. The
// unicast VCs' counts go to the VC allocator (most credits).
`include "meshsync_assert.svh"

module meshsync_credit_counters #(
  /// Downstream worm VC buffer depth (initial credits of VC 0 and VC 3).
  parameter int unsigned BufferDepth = 16,
  /// Downstream sync VC buffer depth (initial credits of VC 1 and VC 2).
  parameter int unsigned SyncBufferDepth = 4,
  /// Depth of the tree VC (VC 4) buffer downstream; 0: the router has no tree VC.
  parameter int unsigned TreeBufferDepth = 66,
  /// The router has the snake VC (VC 3) of multidestination worms.
  parameter bit PathWorms = 1'b1,
  /// Unicast VCs (VC 0 and VCs 5..; each BufferDepth deep).
  parameter int unsigned UnicastVcs = 1,
  /// VCs (derived; do not set).
  parameter int unsigned NumVcs = meshsync_pkg::ClassVcs + UnicastVcs - 1,
  /// Bits of a unicast VC's credit count (derived; do not set).
  parameter int unsigned LaneCountW = $clog2(BufferDepth + 1)
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic [NumVcs-1:0]                  credit_in_i,
  input  logic [NumVcs-1:0]                  send_i,
  output logic [NumVcs-1:0]                  credit_ok_o,
  // Per VC: every credit is back, the buffer downstream is empty (a tree worm's room).
  output logic [NumVcs-1:0]                  empty_o,
  // Per unicast VC (lane l at l * LaneCountW): its credits.
  output logic [UnicastVcs*LaneCountW-1:0]   lane_count_o,
  // More credits returned than the downstream buffer holds.
  output logic                               error_o
);

  localparam int unsigned WormMax = (BufferDepth > TreeBufferDepth) ? BufferDepth : TreeBufferDepth;
  localparam int unsigned MaxDepth = (WormMax > SyncBufferDepth) ? WormMax : SyncBufferDepth;
  localparam int unsigned CountW = $clog2(MaxDepth + 1);

  logic [NumVcs-1:0] overflow;
  logic [CountW-1:0] count [NumVcs];

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    // The worm VCs (0, 3 and the unicast VCs 5..) are BufferDepth deep, the sync VCs
    // SyncBufferDepth; a VC the router is built without has no counter (no credit, and any
    // credit back is one too many).
    localparam int unsigned VcDepth = (v == 4) ? TreeBufferDepth : (v == 3) ? (PathWorms ? BufferDepth : 0) :
                                      meshsync_pkg::is_unicast_vc(v) ? BufferDepth : SyncBufferDepth;
    localparam logic [CountW-1:0] Depth = CountW'(VcDepth);
    if (VcDepth == 0) begin : gen_absent
      assign credit_ok_o[v] = 1'b0;
      assign empty_o[v] = 1'b1;
      assign overflow[v] = credit_in_i[v];
      assign count[v] = '0;
      logic unused_send;
      assign unused_send = send_i[v];
    end else begin : gen_count
      logic [CountW-1:0] count_q, count_d;

      always_comb begin
        count_d = count_q;
        if (credit_in_i[v] && !send_i[v]) begin
          count_d = count_q + 1'b1;
        end else if (send_i[v] && !credit_in_i[v]) begin
          count_d = count_q - 1'b1;
        end
      end

      always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
          count_q <= Depth;
        end else begin
          count_q <= count_d;
        end
      end

      assign count[v] = count_q;
      assign credit_ok_o[v] = count_q != '0;
      assign empty_o[v] = count_q == Depth;
      assign overflow[v] = credit_in_i[v] && !send_i[v] && (count_q == Depth);

      // The router never sends a flit without a credit, and credits never exceed the
      // downstream buffer's depth unless a neighbour returned one too many (error_o).
      `ASSERT(SendWithCredit_A, !send_i[v] || count_q != '0,
              ("a flit sent on VC %0d without a credit", v))
      `ASSERT(CreditsWithinDepth_A, overflow[v] || count_d <= Depth,
              ("VC %0d holds more credits than its downstream buffer's depth", v))
  // Cover point (scripts/coverage): a credit too many, the cause of error_o here.
  `COVER(CreditOverflowError_C, |overflow)

`ifdef MESHSYNC_FORMAL_CREDIT_COUNTERS
      `include "credit_counters.svh"  // the unit proof (tb/formal, scripts/formal)
`endif
    end
  end

  for (genvar l = 0; l < UnicastVcs; l++) begin : gen_lane_count
    assign lane_count_o[l*LaneCountW +: LaneCountW] = LaneCountW'(count[meshsync_pkg::unicast_vc(l)]);
  end

  assign error_o = |overflow;

endmodule

// Credit counters of one non-Local output port, one per VC. Each starts at the depth of
// the downstream buffer of its class; a credit presented in cycle k-1 is counted at the
// edge and usable in cycle k, a flit sent in cycle c takes one at the edge after c.
`include "meshsync_assert.svh"

module meshsync_credit_counters #(
  /// Downstream worm VC buffer depth (initial credits of VC 0 and VC 3).
  parameter int unsigned BufferDepth = 16,
  /// Downstream sync VC buffer depth (initial credits of VC 1 and VC 2).
  parameter int unsigned SyncBufferDepth = 4,
  /// Depth of the tree VC (VC 4) buffer downstream; 0: the router has no tree VC.
  parameter int unsigned TreeBufferDepth = 66,
  /// The router has the snake VC (VC 3) of multidestination worms.
  parameter bit PathWorms = 1'b1
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic [meshsync_pkg::NumVcs-1:0]  credit_in_i,
  input  logic [meshsync_pkg::NumVcs-1:0]  send_i,
  output logic [meshsync_pkg::NumVcs-1:0]  credit_ok_o,
  // Per VC: every credit is back, the buffer downstream is empty (a tree worm's room).
  output logic [meshsync_pkg::NumVcs-1:0]  empty_o,
  // More credits returned than the downstream buffer holds.
  output logic                             error_o
);

  localparam int unsigned WormMax = (BufferDepth > TreeBufferDepth) ? BufferDepth : TreeBufferDepth;
  localparam int unsigned MaxDepth = (WormMax > SyncBufferDepth) ? WormMax : SyncBufferDepth;
  localparam int unsigned CountW = $clog2(MaxDepth + 1);

  logic [meshsync_pkg::NumVcs-1:0] overflow;

  for (genvar v = 0; v < meshsync_pkg::NumVcs; v++) begin : gen_vc
    // The worm VCs (0 and 3) are BufferDepth deep, the sync VCs SyncBufferDepth; a VC the
    // router is built without has no counter (no credit, and any credit back is one too
    // many).
    localparam int unsigned VcDepth = (v == 4) ? TreeBufferDepth : (v == 3) ? (PathWorms ? BufferDepth : 0) :
                                      (v == 0) ? BufferDepth : SyncBufferDepth;
    localparam logic [CountW-1:0] Depth = CountW'(VcDepth);
    if (VcDepth == 0) begin : gen_absent
      assign credit_ok_o[v] = 1'b0;
      assign empty_o[v] = 1'b1;
      assign overflow[v] = credit_in_i[v];
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

  assign error_o = |overflow;

endmodule

// One direction of a mesh link: Tp register stages between a router's output (or credit
// output) and its neighbour's input. A value a router drives in cycle c is at the far end
// in cycle c + Tp, which the neighbour takes at the edge ending that cycle: a flit granted
// in c is in the neighbour's input buffer in c + 1 + Tp, a credit popped in c is usable
// upstream in c + 1 + Tp (docs/microarchitecture.md, "Grant").
module meshsync_link #(
  /// Link latency in cycles (>= 1): the model's tp.
  parameter int unsigned Tp = 5,
  /// Bits carried (flits: valid, VC, flit; credits: one bit per VC). The sender zeroes
  /// them when nothing is sent, so that busy_o is their OR.
  parameter int unsigned Width = 35
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] data_i,
  output logic [Width-1:0] data_o,
  // Something is in flight on the link (any stage non-zero).
  output logic             busy_o
);

  // The Tp stages, newest in the low Width bits, shifted by concatenation. One packed
  // register rather than an unpacked array of stages: its flip-flops keep the name stage_q
  // (Yosys names an unpacked array's stage_q[s]; scripts/rtl-equiv pairs them by name).
  logic [Tp*Width-1:0] stage_q;

  logic [Tp*Width-1:0] stage_d;
  if (Tp > 1) begin : gen_shift
    assign stage_d = {stage_q[(Tp-1)*Width-1:0], data_i};
  end else begin : gen_single
    assign stage_d = data_i;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      stage_q <= '0;
    end else begin
      stage_q <= stage_d;
    end
  end

  assign data_o = stage_q[Tp*Width-1 -: Width];
  assign busy_o = |stage_q;

endmodule

// The reduction lanes of a router's barrier registers (issue 24, docs/reduction-hardware.md
// section 3): per register, five lanes of ReduceWords 32-bit words, lane s (0..3) for
// child slot s (C+X, C-X, C+Y, C-Y), lane 4 for the node's own vector and then the result.
// Not in the router yet: simulated and synthesized alone (tb/rtl/test_reduction_lanes.cpp,
// `scripts/synth --lanes`), which measures what the store costs.
//   - Writes, at the clock edge: a half-word from each of the first WritePorts inputs (a
//     reduction message's body flit the unit takes), then the fold's result, one element (one
//     word, or two for int64) into lane 4 of the emitter's register. A later write to the
//     same half-word wins (inputs in index order, the fold last); the contract gives every
//     (register, lane) one writer at a time, so none collide in a correct run.
//   - Reads, combinational, of the emitter's register: two elements for the fold's
//     operands (any lanes; 64 bits, the word and the next, which reads 0 past the lane),
//     and per output port the half-word of lane 4 that its slot streams.
module meshsync_reduction_lanes #(
  /// Barrier registers (>= 1).
  parameter int unsigned NumRegs = 4,
  /// 32-bit words per lane (>= 1).
  parameter int unsigned ReduceWords = 4,
  /// Half-word write ports, the first inputs' (the contract has one: the unit takes one
  /// flit a cycle; one per input was measured at 25,000 cells more, docs/reduction-
  /// hardware.md), and stream read ports, the first output ports' (one per port).
  parameter int unsigned WritePorts = 1,
  parameter int unsigned StreamPorts = meshsync_pkg::NumPorts,
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  localparam int unsigned WordW = (ReduceWords > 1) ? $clog2(ReduceWords) : 1,
  // A half-word's index in a lane: 2 * word + 1 for the high half.
  localparam int unsigned HalfW = WordW + 1,
  localparam int unsigned NumPorts = meshsync_pkg::NumPorts
) (
  input  logic                      clk_i,
  // Half-word writes, one per input.
  input  logic [NumPorts-1:0]       hw_valid_i,
  input  logic [NumPorts*RegW-1:0]  hw_reg_i,
  input  logic [NumPorts*3-1:0]     hw_lane_i,
  input  logic [NumPorts*HalfW-1:0] hw_half_i,
  input  logic [NumPorts*16-1:0]    hw_data_i,
  // The emitter's register: the fold and the streams read it, the fold writes it.
  input  logic [RegW-1:0]           reg_i,
  // The fold's result: the element at word fold_word_i of lane 4 (and the next word, wide).
  input  logic                      fold_valid_i,
  input  logic                      fold_wide_i,
  input  logic [WordW-1:0]          fold_word_i,
  input  logic [63:0]               fold_data_i,
  // The fold's operands: the element at word rd_word_i of lanes a and b.
  input  logic [2:0]                rd_lane_a_i,
  input  logic [2:0]                rd_lane_b_i,
  input  logic [WordW-1:0]          rd_word_i,
  output logic [63:0]               rd_a_o,
  output logic [63:0]               rd_b_o,
  // The streams: per output port, the half-word of lane 4 at st_half_i.
  input  logic [NumPorts*HalfW-1:0] st_half_i,
  output logic [NumPorts*16-1:0]    st_data_o
);

  localparam int unsigned NumLanes = 5;
  localparam int unsigned LaneLocal = 4;
  // A word index and the next one, without wrapping (Yosys 0.23 has no int'() cast).
  localparam int unsigned IdxW = WordW + 1;

  // The ports by input / output port; a half-word index split into its word and its half
  // (1: the high half).
  logic [RegW-1:0] hw_reg [NumPorts];
  logic [2:0] hw_lane [NumPorts];
  logic [WordW-1:0] hw_word [NumPorts], st_word [NumPorts];
  logic [NumPorts-1:0] hw_high, st_high;
  logic [15:0] hw_data [NumPorts], st_data [NumPorts];
  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    assign hw_reg[p] = hw_reg_i[p*RegW +: RegW];
    assign hw_lane[p] = hw_lane_i[p*3 +: 3];
    assign hw_word[p] = hw_half_i[p*HalfW+1 +: WordW];
    assign hw_high[p] = hw_half_i[p*HalfW];
    assign hw_data[p] = hw_data_i[p*16 +: 16];
    assign st_word[p] = st_half_i[p*HalfW+1 +: WordW];
    assign st_high[p] = st_half_i[p*HalfW];
    assign st_data_o[p*16 +: 16] = st_data[p];
  end

  // Every word: word w of lane l of register r.
  logic [31:0] words [NumRegs][NumLanes][ReduceWords];

  for (genvar r = 0; r < NumRegs; r++) begin : gen_reg
    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      for (genvar w = 0; w < ReduceWords; w++) begin : gen_word
        logic [31:0] q;
        always_ff @(posedge clk_i) begin
          for (int p = 0; p < WritePorts; p++) begin
            if (hw_valid_i[p] && hw_reg[p] == RegW'(r) && hw_lane[p] == 3'(l) && hw_word[p] == WordW'(w)) begin
              if (hw_high[p]) q[31:16] <= hw_data[p];
              else q[15:0] <= hw_data[p];
            end
          end
          if (l == LaneLocal && fold_valid_i && reg_i == RegW'(r)) begin
            if (fold_word_i == WordW'(w)) q <= fold_data_i[31:0];
            else if (fold_wide_i && IdxW'(fold_word_i) + IdxW'(1) == IdxW'(w)) q <= fold_data_i[63:32];
          end
        end
        assign words[r][l][w] = q;
      end
    end
  end

  // Reads: the emitter's register first, then lane and word.
  logic [31:0] held [NumLanes][ReduceWords];
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      for (int w = 0; w < ReduceWords; w++) begin
        held[l][w] = '0;
        for (int r = 0; r < NumRegs; r++) begin
          if (reg_i == RegW'(r)) held[l][w] = words[r][l][w];
        end
      end
    end
  end

  always_comb begin
    rd_a_o = '0;
    rd_b_o = '0;
    for (int l = 0; l < NumLanes; l++) begin
      for (int w = 0; w < ReduceWords; w++) begin
        if (rd_lane_a_i == 3'(l) && rd_word_i == WordW'(w)) rd_a_o[31:0] = held[l][w];
        if (rd_lane_a_i == 3'(l) && IdxW'(rd_word_i) + IdxW'(1) == IdxW'(w)) rd_a_o[63:32] = held[l][w];
        if (rd_lane_b_i == 3'(l) && rd_word_i == WordW'(w)) rd_b_o[31:0] = held[l][w];
        if (rd_lane_b_i == 3'(l) && IdxW'(rd_word_i) + IdxW'(1) == IdxW'(w)) rd_b_o[63:32] = held[l][w];
      end
    end
    for (int p = 0; p < NumPorts; p++) begin
      st_data[p] = '0;
      if (p < StreamPorts) begin
        for (int w = 0; w < ReduceWords; w++) begin
          if (st_word[p] == WordW'(w)) begin
            st_data[p] = st_high[p] ? held[LaneLocal][w][31:16] : held[LaneLocal][w][15:0];
          end
        end
      end
    end
  end

endmodule

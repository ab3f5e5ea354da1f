// The reduction ALU (issue 24, docs/reduction.md "The reduction ALU"): combines two
// elements of an in-network reduction, bit for bit as the software's `combine`
// (model/core/reduction_element.cpp) does, so that a reduction in the routers gives what the
// software reference gives. Combinational: one pair of elements a cycle where the clock
// allows the float32 sum's depth (docs/reduction.md), inside t_rm either way.
//   - integers (int32 in bits 31:0, int64 in 63:0): sum with two's-complement
//     wrap-around, signed min and max, and, or, xor;
//   - float32 (bits 31:0; Float32 = 1): sum rounded to nearest even with subnormals (no
//     flush to zero), IEEE 754-2019 minimum and maximum (-0 below +0). Any NaN result is
//     the quiet NaN 0x7fc00000: hardware carries no NaN payloads, and neither does the
//     software reference.
// A result's unused upper word (int32, float32) is zero. An operation the ALU was not
// built for (int64 with Int64 = 0, float32 with Float32 = 0, a bitwise float32 operation)
// gives zero and raises error_o.
module meshsync_reduction_alu #(
  /// 64-bit integers (0: int32 only, a 32-bit datapath).
  parameter bit Int64 = 1'b1,
  /// float32 sum, min and max.
  parameter bit Float32 = 1'b1
) (
  // A reduce_op_t and a reduce_type_t, as the descriptor's bits carry them (Yosys 0.23
  // cannot cast to a package's type).
  input  logic [2:0]                 op_i,
  input  logic [1:0]                 type_i,
  input  logic [63:0]                a_i,
  input  logic [63:0]                b_i,
  output logic [63:0]                result_o,
  output logic                       error_o
);

  localparam int unsigned W = Int64 ? 64 : 32;

  // ---------------------------------------------------------------------------------------
  // Integers: one W-bit adder and comparator serve both widths (int32 compares its sign
  // bit at 31: the operands are sign-extended first).
  // ---------------------------------------------------------------------------------------
  logic is64;
  logic [W-1:0] ia, ib, isum, imin, imax, iresult;
  assign is64 = Int64 && (type_i == meshsync_pkg::ReduceInt64);
  always_comb begin
    ia = W'(a_i);
    ib = W'(b_i);
    if (!is64) begin
      ia = W'({{32{a_i[31]}}, a_i[31:0]});
      ib = W'({{32{b_i[31]}}, b_i[31:0]});
    end
  end
  assign isum = ia + ib;
  assign imin = ($signed(ia) < $signed(ib)) ? ia : ib;
  assign imax = ($signed(ia) < $signed(ib)) ? ib : ia;
  always_comb begin
    unique case (op_i)
      meshsync_pkg::ReduceSum: iresult = isum;
      meshsync_pkg::ReduceMin: iresult = imin;
      meshsync_pkg::ReduceMax: iresult = imax;
      meshsync_pkg::ReduceAnd: iresult = ia & ib;
      meshsync_pkg::ReduceOr:  iresult = ia | ib;
      meshsync_pkg::ReduceXor: iresult = ia ^ ib;
      default:                 iresult = '0;
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // float32
  // ---------------------------------------------------------------------------------------
  logic [31:0] fresult;
  if (Float32) begin : gen_float
    meshsync_reduction_float32 u_float (
      .op_i     (op_i),
      .a_i      (a_i[31:0]),
      .b_i      (b_i[31:0]),
      .result_o (fresult)
    );
  end else begin : gen_no_float
    assign fresult = '0;
  end

  logic float_op_ok;
  assign float_op_ok = (op_i == meshsync_pkg::ReduceSum) || (op_i == meshsync_pkg::ReduceMin) ||
                       (op_i == meshsync_pkg::ReduceMax);
  always_comb begin
    result_o = '0;
    error_o = 1'b0;
    unique case (type_i)
      meshsync_pkg::ReduceInt32: begin
        result_o = {32'b0, iresult[31:0]};
        error_o = op_i > meshsync_pkg::ReduceXor;
      end
      meshsync_pkg::ReduceInt64: begin
        result_o = 64'(iresult);
        error_o = !Int64 || (op_i > meshsync_pkg::ReduceXor);
      end
      meshsync_pkg::ReduceFloat32: begin
        result_o = {32'b0, fresult};
        error_o = !Float32 || !float_op_ok;
      end
      default: error_o = 1'b1;
    endcase
    if (error_o) result_o = '0;
  end

  logic unused;
  assign unused = ^{a_i[63:32], b_i[63:32]};

endmodule

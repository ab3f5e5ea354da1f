// float32 for the reduction ALU: sum, rounded to nearest, ties to even, with subnormals
// in and out (no flush to zero), and IEEE 754-2019 minimum and maximum (-0 below +0).
// Any NaN result is the quiet NaN 0x7fc00000 (invalid: inf - inf; or a NaN operand).
// The sum is the textbook one: the larger magnitude first, the smaller aligned to it
// with guard, round and sticky bits, add or subtract, normalize (never below the
// smallest exponent: that is a subnormal), round, and overflow to infinity.
module meshsync_reduction_float32 (
  input  logic [2:0]               op_i,  // a reduce_op_t
  input  logic [31:0]              a_i,
  input  logic [31:0]              b_i,
  output logic [31:0]              result_o
);

  localparam logic [31:0] QuietNaN = 32'h7fc0_0000;

  logic a_nan, b_nan, a_inf, b_inf;
  assign a_nan = (a_i[30:23] == 8'hff) && (a_i[22:0] != '0);
  assign b_nan = (b_i[30:23] == 8'hff) && (b_i[22:0] != '0);
  assign a_inf = (a_i[30:23] == 8'hff) && (a_i[22:0] == '0);
  assign b_inf = (b_i[30:23] == 8'hff) && (b_i[22:0] == '0);

  // ---------------------------------------------------------------------------------------
  // Minimum and maximum: a key that orders every non-NaN value as unsigned integers
  // (negatives reversed below positives, -0 just below +0).
  // ---------------------------------------------------------------------------------------
  logic [31:0] a_key, b_key, fmin, fmax;
  assign a_key = a_i[31] ? ~a_i : {1'b1, a_i[30:0]};
  assign b_key = b_i[31] ? ~b_i : {1'b1, b_i[30:0]};
  assign fmin = (a_key <= b_key) ? a_i : b_i;
  assign fmax = (a_key <= b_key) ? b_i : a_i;

  // ---------------------------------------------------------------------------------------
  // Sum
  // ---------------------------------------------------------------------------------------
  // The larger magnitude is x, the other y (their order only matters for the sign).
  logic swap;
  logic [31:0] x, y;
  assign swap = b_i[30:0] > a_i[30:0];
  assign x = swap ? b_i : a_i;
  assign y = swap ? a_i : b_i;

  // Effective exponents (a subnormal's is 1) and significands with the hidden bit.
  logic [7:0] ex, ey;
  logic [23:0] mx, my;
  assign ex = (x[30:23] == '0) ? 8'd1 : x[30:23];
  assign ey = (y[30:23] == '0) ? 8'd1 : y[30:23];
  assign mx = {x[30:23] != '0, x[22:0]};
  assign my = {y[30:23] != '0, y[22:0]};

  // y aligned to x: 24 bits of significand, then guard, round and sticky.
  logic [7:0] exp_diff;
  logic [4:0] shift;
  logic [53:0] y_wide;
  logic [26:0] y_aligned;
  assign exp_diff = ex - ey;
  assign shift = (exp_diff > 8'd27) ? 5'd27 : exp_diff[4:0];
  assign y_wide = {my, 3'b000, 27'b0} >> shift;
  assign y_aligned = {y_wide[53:28], y_wide[27] | (|y_wide[26:0])};

  logic subtract;
  logic [27:0] raw;
  assign subtract = x[31] != y[31];
  assign raw = subtract ? {1'b0, mx, 3'b000} - {1'b0, y_aligned} : {1'b0, mx, 3'b000} + {1'b0, y_aligned};

  // Normalize: a carry shifts right once (its lost bit joins the sticky); otherwise shift
  // left over the leading zeros, but not below exponent 1 (the result is subnormal).
  logic [4:0] lz, left;
  logic [26:0] norm;
  logic [8:0] e_norm;
  always_comb begin
    lz = 5'd27;
    for (int i = 0; i <= 26; i++) begin
      if (raw[i]) lz = 5'(26 - i);
    end
  end
  always_comb begin
    left = ((9'(lz)) < 9'(ex)) ? lz : 5'(ex - 8'd1);
    if (raw[27]) begin
      norm = {raw[27:2], raw[1] | raw[0]};
      e_norm = 9'(ex) + 9'd1;
    end else begin
      norm = raw[26:0] << left;
      e_norm = 9'(ex) - 9'(left);
    end
  end

  // Round to nearest, ties to even; a significand that rounds up to 2.0 moves the
  // exponent, and a subnormal that rounds up to 1.0 becomes normal by its hidden bit.
  logic round_up;
  logic [24:0] rounded;
  logic [8:0] e_final;
  logic [31:0] fsum;
  assign round_up = norm[2] && (norm[1] || norm[0] || norm[3]);
  assign rounded = {1'b0, norm[26:3]} + 25'(round_up);
  always_comb begin
    e_final = rounded[24] ? e_norm + 9'd1 : e_norm;
    if (a_nan || b_nan || (a_inf && b_inf && (a_i[31] != b_i[31]))) begin
      fsum = QuietNaN;
    end else if (a_inf || b_inf) begin
      fsum = a_inf ? a_i : b_i;
    end else if (raw == '0) begin
      // An exact zero is +0, unless both operands are -0.
      fsum = {a_i[31] && b_i[31], 31'b0};
    end else if (e_final >= 9'd255) begin
      fsum = {x[31], 8'hff, 23'b0};
    end else if (rounded[24]) begin
      fsum = {x[31], e_final[7:0], rounded[23:1]};
    end else begin
      // Hidden bit clear: a subnormal, exponent field 0.
      fsum = {x[31], rounded[23] ? e_final[7:0] : 8'd0, rounded[22:0]};
    end
  end

  always_comb begin
    if (a_nan || b_nan) begin
      result_o = QuietNaN;
    end else begin
      unique case (op_i)
        meshsync_pkg::ReduceMin: result_o = fmin;
        meshsync_pkg::ReduceMax: result_o = fmax;
        default:                 result_o = fsum;
      endcase
    end
  end

endmodule

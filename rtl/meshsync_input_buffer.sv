// The input buffer of one virtual channel: a FIFO of entries {flit, countdown, out}.
// `countdown` is the router delay still to run (D - 1 when the entry is written, so the
// entry may leave in cycle arrival + D - 1, the model's `ready`); every entry counts down
// each cycle, so an entry reaching the head after a long wait is ready at once. `out` is
// an output port or OutConsume (the barrier unit).
module meshsync_input_buffer #(
  /// Entries (the downstream credit count of this VC).
  parameter int unsigned Depth = 4,
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Countdown width: enough for the longest router delay minus one.
  parameter int unsigned CntW = 5
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  // Write side: the flit presented this cycle is in the buffer from the next cycle on.
  input  logic                           push_i,
  input  logic [FlitW-1:0]               push_flit_i,
  input  logic [CntW-1:0]                push_cnt_i,
  input  logic [meshsync_pkg::PortW-1:0] push_out_i,
  // Read side: the head leaves this cycle.
  input  logic                           pop_i,
  output logic                           head_ready_o,
  output logic [FlitW-1:0]               head_flit_o,
  output logic [meshsync_pkg::PortW-1:0] head_out_o,
  output logic                           full_o,
  // Nothing buffered (the router's idle output).
  output logic                           empty_o,
  // A write into a full buffer that does not pop: the upstream ignored flow control.
  output logic                           overflow_o
);

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned CountW = $clog2(Depth + 1);
  localparam logic [PtrW-1:0] LastPtr = PtrW'(Depth - 1);
  localparam logic [CountW-1:0] DepthCount = CountW'(Depth);

  logic [PtrW-1:0] rd_ptr_q, rd_ptr_d, wr_ptr_q, wr_ptr_d;
  logic [CountW-1:0] count_q, count_d;
  logic [FlitW-1:0] flit_q [Depth];
  logic [CntW-1:0] cnt_q [Depth];
  logic [meshsync_pkg::PortW-1:0] out_q [Depth];
  logic write;

  assign full_o = count_q == DepthCount;
  assign empty_o = count_q == '0;
  assign overflow_o = push_i && full_o && !pop_i;
  assign write = push_i && !overflow_o;

  // The head may leave: the buffer is not empty and its countdown has run out.
  assign head_flit_o = flit_q[rd_ptr_q];
  assign head_out_o = out_q[rd_ptr_q];
  assign head_ready_o = !empty_o && (cnt_q[rd_ptr_q] == '0);

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    count_d = count_q;
    if (pop_i) begin
      rd_ptr_d = (rd_ptr_q == LastPtr) ? '0 : rd_ptr_q + 1'b1;
    end
    if (write) begin
      wr_ptr_d = (wr_ptr_q == LastPtr) ? '0 : wr_ptr_q + 1'b1;
    end
    if (pop_i && !write) begin
      count_d = count_q - 1'b1;
    end else if (write && !pop_i) begin
      count_d = count_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      count_q <= count_d;
    end
  end

  // Storage: no reset needed, an entry is read only after it has been written.
  for (genvar e = 0; e < Depth; e++) begin : gen_entry
    logic load;
    assign load = write && (wr_ptr_q == PtrW'(e));
    always_ff @(posedge clk_i) begin
      if (load) begin
        flit_q[e] <= push_flit_i;
        out_q[e] <= push_out_i;
      end
    end
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        cnt_q[e] <= '0;
      end else if (load) begin
        cnt_q[e] <= push_cnt_i;
      end else if (cnt_q[e] != '0) begin
        cnt_q[e] <= cnt_q[e] - 1'b1;
      end
    end
  end

endmodule

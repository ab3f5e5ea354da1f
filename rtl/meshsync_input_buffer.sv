// The input buffer of one virtual channel: a FIFO of entries {flit, countdown, out}.
// `countdown` is the router delay still to run (D - 1 when the entry is written, so the
// entry may leave in cycle arrival + D - 1, the model's `ready`); every entry counts down
// each cycle while the buffer holds a flit, so an entry reaching the head after a long
// wait is ready at once (an empty buffer's stale counts are never read: head_cnt_o
// matters only under head_valid_o). `out` is
// an output port or OutConsume (the barrier unit).
//
// Arrivals are registered before their CAM lookup: an entry is written with what the flit
// alone says (route, delay without the registers), and in its arrival cycle (`fresh_o`)
// the input port looks it up in the register file and may correct its `out` and
// countdown (fix_*). The correction applies at once to the head and is stored at the
// edge. `relabel_i` turns the head's OutConsume into PortLocal (its register was freed);
// `done_i` marks that the barrier unit has seen the head (a CS setup/teardown passing
// through: its transit entry is updated), until the head leaves.
//
// With the allocation pipeline's head stages (HeadStages, worm VCs), a worm head that
// reaches the front behind another flit runs its stages from there: as the flit before
// it pops, its countdown becomes at least FrontCnt (stages + Trn - 2: it may leave in the
// cycle pop + stages + Trn - 1), the model's InputUnit::pop.
`include "meshsync_assert.svh"

module meshsync_input_buffer #(
  /// Entries (the downstream credit count of this VC).
  parameter int unsigned Depth = 4,
  /// Flit width in bits: meshsync_pkg::FlitBits, the width of the flit ports (flit_t).
  parameter int unsigned FlitW = 32,
  /// Countdown width: enough for the longest router delay minus one.
  parameter int unsigned CntW = 5,
  /// Bits stored with each entry for the input port (a multidestination worm's copy and
  /// promote flags on the worm VCs).
  parameter int unsigned TagW = 2,
  /// Worm heads run the allocation pipeline's head stages when they reach the front.
  parameter bit HeadStages = 1'b0,
  /// The countdown a head reaching the front has at least (HeadStages only).
  parameter int unsigned FrontCnt = 0
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  // Write side: the flit presented this cycle is in the buffer from the next cycle on.
  input  logic                           push_i,
  input  meshsync_pkg::flit_t            push_flit_i,
  input  logic [CntW-1:0]                push_cnt_i,
  input  logic [meshsync_pkg::PortW-1:0] push_out_i,
  input  logic [TagW-1:0]                push_tag_i,
  // The entry written at the last edge (its arrival cycle is this one), still buffered.
  output logic                           fresh_o,
  output meshsync_pkg::flit_t            fresh_flit_o,
  output logic [meshsync_pkg::PortW-1:0] fresh_out_o,
  // Corrections of the fresh entry from its CAM lookup.
  input  logic                           fix_out_i,
  input  logic [meshsync_pkg::PortW-1:0] fix_out_port_i,
  input  logic                           fix_cnt_i,
  input  logic [CntW-1:0]                fix_cnt_value_i,
  input  logic                           relabel_i,
  input  logic                           done_i,
  // Read side.
  input  logic                           pop_i,
  output logic                           head_valid_o,
  output logic                           head_done_o,
  output logic                           head_ready_o,
  output logic [CntW-1:0]                head_cnt_o,
  output meshsync_pkg::flit_t            head_flit_o,
  output logic [meshsync_pkg::PortW-1:0] head_out_o,
  output logic [TagW-1:0]                head_tag_o,
  output logic                           full_o,
  output logic                           empty_o,
  // A write into a full buffer (the upstream ignored its credits).
  output logic                           overflow_o
);

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned CountW = $clog2(Depth + 1);
  localparam logic [PtrW-1:0] LastPtr = PtrW'(Depth - 1);
  localparam logic [CountW-1:0] DepthCount = CountW'(Depth);

  logic [PtrW-1:0] rd_ptr_q, rd_ptr_d, wr_ptr_q, wr_ptr_d, fresh_ptr, next_ptr;
  logic [CountW-1:0] count_q, count_d;
  // The entries' flits as plain vectors (Yosys 0.23 misreads unpacked arrays of structs);
  // the flit ports are flit_t.
  logic [FlitW-1:0] flit_q [Depth];
  // Packed: one register updated in one loop (below), whose flip-flops keep the name
  // cnt_q (an unpacked array's would be named per entry); cnt[e] is entry e's countdown.
  logic [Depth*CntW-1:0] cnt_q;
  logic [CntW-1:0] cnt [Depth];
  logic [meshsync_pkg::PortW-1:0] out_q [Depth];
  logic [TagW-1:0] tag_q [Depth];
  logic write, wrote_q, head_fresh, done_q;
  // The flit behind the head becomes the front at this edge and is a worm head: its
  // stages start (HeadStages).
  logic front_head;

  assign full_o = count_q == DepthCount;
  assign empty_o = count_q == '0;
  assign overflow_o = push_i && full_o && !pop_i;
  assign write = push_i && !overflow_o;

  // The fresh entry is the last one written; it is the head when it is alone.
  assign fresh_ptr = (wr_ptr_q == '0) ? LastPtr : wr_ptr_q - 1'b1;
  assign fresh_o = wrote_q;
  assign fresh_flit_o = flit_q[fresh_ptr];
  assign fresh_out_o = out_q[fresh_ptr];
  assign head_fresh = wrote_q && (count_q == CountW'(1));

  assign head_valid_o = !empty_o;
  assign head_done_o = done_q;
  assign head_flit_o = flit_q[rd_ptr_q];
  assign head_out_o = (head_fresh && fix_out_i) ? fix_out_port_i : out_q[rd_ptr_q];
  assign head_tag_o = tag_q[rd_ptr_q];
  // Read by the pointer as a part-select (a shifter; cnt[rd_ptr_q] costs 62 more cells in base).
  assign head_cnt_o = (head_fresh && fix_cnt_i) ? fix_cnt_value_i : cnt_q[rd_ptr_q*CntW +: CntW];
  assign head_ready_o = !empty_o && (head_cnt_o == '0);

  assign next_ptr = (rd_ptr_q == LastPtr) ? '0 : rd_ptr_q + 1'b1;
  assign front_head = HeadStages && pop_i && (count_q > CountW'(1)) &&
                      flit_q[next_ptr][meshsync_pkg::head_bit(FlitW)];

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
      wrote_q <= 1'b0;
      done_q <= 1'b0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      count_q <= count_d;
      wrote_q <= write;
      done_q <= !pop_i && (done_q || done_i);
    end
  end

  // One write per cycle at each pointer rather than a write enable per entry: the same
  // registers, but a simulator then updates one entry per cycle instead of testing all.
  // Later writes win: the new flit over the head's relabel over the fresh entry's
  // correction.
  always_ff @(posedge clk_i) begin
    if (wrote_q && fix_out_i) out_q[fresh_ptr] <= fix_out_port_i;
    if (relabel_i) out_q[rd_ptr_q] <= meshsync_pkg::PortLocal;
    if (write) begin
      flit_q[wr_ptr_q] <= push_flit_i;
      out_q[wr_ptr_q] <= push_out_i;
      tag_q[wr_ptr_q] <= push_tag_i;
    end
  end

  // A procedural loop, not a generate loop: Verilator refuses to unroll a generate loop of
  // more than 1024 entries before the parameter check can name a too-deep buffer.
  always_comb begin
    for (int e = 0; e < Depth; e++) cnt[e] = cnt_q[e*CntW +: CntW];
  end

  // The countdowns run only while the buffer holds a flit or takes one: an empty buffer's
  // entries hold nothing to count for (an entry is loaded with its own countdown). This is
  // the clock gating a synthesized router would get, and it spares the simulator the
  // entries of idle VCs, most of all the tree VC's 66 (docs/performance.md).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else if (write || !empty_o) begin
      // Each entry takes the new flit's countdown, or the fresh entry's correction with
      // this cycle already run, or counts down one cycle (stopping at 0).
      for (int e = 0; e < Depth; e++) begin
        if (write && (wr_ptr_q == PtrW'(e))) begin
          cnt_q[e*CntW +: CntW] <= push_cnt_i;
        end else if (wrote_q && fix_cnt_i && (fresh_ptr == PtrW'(e))) begin
          cnt_q[e*CntW +: CntW] <= (fix_cnt_value_i == '0) ? '0 : fix_cnt_value_i - 1'b1;
        end else if (front_head && (next_ptr == PtrW'(e)) && (cnt[e] <= CntW'(FrontCnt))) begin
          cnt_q[e*CntW +: CntW] <= CntW'(FrontCnt);
        end else if (cnt[e] != '0) begin
          cnt_q[e*CntW +: CntW] <= cnt[e] - 1'b1;
        end
      end
    end
  end

  // An input pops only a VC that holds a flit (its arbiter picks among eligible VCs, and
  // an eligible VC has a head).
  `ASSERT(NoPopFromEmpty_A, !pop_i || !empty_o, ("pop from an empty input buffer"))

  // Cover points (scripts/coverage): this VC's buffer full; a worm head reaching the front
  // behind another flit with its stages still to run.
  `COVER(Full_C, full_o)
  if (HeadStages) begin : gen_head_stages
    `COVER(HeadStagesAtFront_C, front_head && (cnt[next_ptr] <= CntW'(FrontCnt)))
  end

`ifdef MESHSYNC_FORMAL_INPUT_BUFFER
  `include "input_buffer.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

endmodule

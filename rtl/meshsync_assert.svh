// Assertion macros: every property of the RTL is written once and expands for each tool
// that reads it (the lowRISC prim_assert idea, in the forms Yosys 0.23 and Verilator 5.006
// both take; docs/verification.md, "Writing a property").
//
//   `ASSERT(Name, Property, ("message %0d", args))   a rule the design keeps
//   `ASSUME(Name, Property)                           a rule the environment keeps
//   `COVER(Name, Property)                            a state that must be reachable
//
// Each stands at module or generate scope, in a module with clk_i and rst_ni, and speaks
// of the cycle's values before the clock edge, out of reset only.
//   - Verilator (simulation, --assert; --coverage for COVER): a named immediate assertion
//     at the clock edge; a failure prints Name (its hierarchical path) and the message.
//   - Yosys read_verilog -formal (FORMAL defined; scripts/formal): an unclocked immediate
//     assert/assume/cover, no label (labels in generate loops collide there, and
//     `else $error` is a syntax error).
//   - Synthesis (Yosys read_verilog without -formal defines SYNTHESIS): nothing.
// Properties use plain expressions: no int locals, no int'() casts, no $countones (Yosys
// -formal refuses or misreads them).
`ifndef MESHSYNC_ASSERT_SVH
`define MESHSYNC_ASSERT_SVH

`ifdef FORMAL
`define ASSERT(Name, Prop, Msg) always @* if (rst_ni) assert (Prop);
`define ASSUME(Name, Prop) always @* if (rst_ni) assume (Prop);
`define COVER(Name, Prop) always @* if (rst_ni) cover (Prop);
`elsif SYNTHESIS
`define ASSERT(Name, Prop, Msg)
`define ASSUME(Name, Prop)
`define COVER(Name, Prop)
`else
`define ASSERT(Name, Prop, Msg) \
  always_ff @(posedge clk_i) if (rst_ni) Name: assert (Prop) else $error Msg;
`define ASSUME(Name, Prop) \
  always_ff @(posedge clk_i) if (rst_ni) Name: assume (Prop) else $error("an assumption failed");
`define COVER(Name, Prop) Name: cover property (@(posedge clk_i) rst_ni && (Prop));
`endif

`endif

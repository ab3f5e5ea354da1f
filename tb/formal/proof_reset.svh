// A unit proof starts in reset: the first cycle has rst_ni low, so that bounded model
// checking starts from the reset state (without it, the solver starts anywhere). After
// that rst_ni is free: a reset may come at any cycle.
logic f_started = 1'b0;
always_ff @(posedge clk_i) f_started <= 1'b1;
always @* if (!f_started) assume (!rst_ni);

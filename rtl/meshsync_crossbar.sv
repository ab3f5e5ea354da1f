// The crossbar (contract step 7): each output port carries the flit of the requester its
// arbiter chose, an input port's head flit or a barrier register's offered message.
module meshsync_crossbar #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Barrier registers (requesters 5 .. 5+NumRegs-1); 0 is allowed.
  parameter int unsigned NumRegs = 4,
  /// Entries of the register offer buses (NumRegs, at least 1 so that they exist).
  parameter int unsigned RegSlots = (NumRegs > 0) ? NumRegs : 1,
  /// Width of a requester index.
  parameter int unsigned IdxW = $clog2(meshsync_pkg::NumPorts + NumRegs)
) (
  input  logic [meshsync_pkg::NumPorts*FlitW-1:0]                   in_flit_i,
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::VcW-1:0]       in_vc_i,
  // Register k's offer to output o at index k*NumPorts+o.
  input  logic [RegSlots*meshsync_pkg::NumPorts*FlitW-1:0]          reg_flit_i,
  input  logic [RegSlots*meshsync_pkg::NumPorts*meshsync_pkg::VcW-1:0] reg_vc_i,
  input  logic [meshsync_pkg::NumPorts-1:0]                         gnt_valid_i,
  input  logic [meshsync_pkg::NumPorts*IdxW-1:0]                    gnt_idx_i,
  output logic [meshsync_pkg::NumPorts-1:0]                         out_valid_o,
  output logic [meshsync_pkg::NumPorts*meshsync_pkg::VcW-1:0]       out_vc_o,
  output logic [meshsync_pkg::NumPorts*FlitW-1:0]                   out_flit_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned VcW = meshsync_pkg::VcW;
  // Signed loop bound: no constant-comparison warning when there are no registers.
  localparam int NumRegsI = NumRegs;

  always_comb begin
    out_flit_o = '0;
    out_vc_o = '0;
    for (int o = 0; o < NumPorts; o++) begin
      for (int i = 0; i < NumPorts; i++) begin
        if (gnt_idx_i[o*IdxW +: IdxW] == IdxW'(i)) begin
          out_flit_o[o*FlitW +: FlitW] = in_flit_i[i*FlitW +: FlitW];
          out_vc_o[o*VcW +: VcW] = in_vc_i[i*VcW +: VcW];
        end
      end
      for (int k = 0; k < NumRegsI; k++) begin
        if (gnt_idx_i[o*IdxW +: IdxW] == IdxW'(NumPorts + k)) begin
          out_flit_o[o*FlitW +: FlitW] = reg_flit_i[(k*NumPorts + o)*FlitW +: FlitW];
          out_vc_o[o*VcW +: VcW] = reg_vc_i[(k*NumPorts + o)*VcW +: VcW];
        end
      end
    end
  end

  assign out_valid_o = gnt_valid_i;

  if (NumRegs == 0) begin : gen_no_regs
    // Without barrier registers the offer buses are tied off by the router.
    logic unused_reg;
    assign unused_reg = ^{reg_flit_i, reg_vc_i};
  end

endmodule

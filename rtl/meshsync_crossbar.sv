// The crossbar: each output carries the flit of the requester that won it, an input
// (index 0..NumIn-1) or the barrier emitter (index NumIn, routers with registers; it
// offers on the five ports only, never on an all-port router's ejection outputs).
module meshsync_crossbar #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Inputs: the five ports and an all-port NI's injection channels 1-3.
  parameter int unsigned NumIn = meshsync_pkg::NumPorts,
  /// Outputs: the five ports and an all-port NI's ejection outputs.
  parameter int unsigned NumOut = meshsync_pkg::NumPorts,
  /// The router has barrier registers, hence an emitter.
  parameter bit HasEmitter = 1'b1,
  /// Width of a grant index.
  parameter int unsigned IdxW = 3
) (
  input  logic [NumIn*FlitW-1:0]                                    in_flit_i,
  input  logic [NumIn*meshsync_pkg::VcW-1:0]                        in_vc_i,
  // The emitter's offer per port.
  input  logic [meshsync_pkg::NumPorts*FlitW-1:0]                   em_flit_i,
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::VcW-1:0]       em_vc_i,
  input  logic [NumOut-1:0]                                         gnt_valid_i,
  input  logic [NumOut*IdxW-1:0]                                    gnt_idx_i,
  output logic [NumOut-1:0]                                         out_valid_o,
  output logic [NumOut*meshsync_pkg::VcW-1:0]                       out_vc_o,
  output logic [NumOut*FlitW-1:0]                                   out_flit_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned VcW = meshsync_pkg::VcW;

  always_comb begin
    out_flit_o = '0;
    out_vc_o = '0;
    for (int o = 0; o < NumOut; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if (gnt_idx_i[o*IdxW +: IdxW] == IdxW'(i)) begin
          out_flit_o[o*FlitW +: FlitW] = in_flit_i[i*FlitW +: FlitW];
          out_vc_o[o*VcW +: VcW] = in_vc_i[i*VcW +: VcW];
        end
      end
    end
    for (int o = 0; o < NumPorts; o++) begin
      if (HasEmitter && (gnt_idx_i[o*IdxW +: IdxW] == IdxW'(NumIn))) begin
        out_flit_o[o*FlitW +: FlitW] = em_flit_i[o*FlitW +: FlitW];
        out_vc_o[o*VcW +: VcW] = em_vc_i[o*VcW +: VcW];
      end
    end
  end

  assign out_valid_o = gnt_valid_i;

  if (!HasEmitter) begin : gen_no_emitter
    logic unused_emitter;
    assign unused_emitter = ^{em_flit_i, em_vc_i};
  end

endmodule

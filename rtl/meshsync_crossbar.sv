// The crossbar: each output carries the flit of the requester that won it, an input
// (index 0..NumIn-1) or the barrier emitter (index NumIn, routers with registers; it
// offers on the five ports only, never on an all-port router's ejection outputs).
// Two flits change on their way to a link: the address flit behind an absorbed head
// leaves as the forwarded worm's head (its copy to the NI stays as it came), and a tree
// head's copy to a child is readdressed to the child, with the child's route.
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
  // Per input: its flit heads the forwarded worm on its link.
  input  logic [NumIn-1:0]                                          in_promote_i,
  // Per input: a tree flit; per input and link, the child its head is readdressed to on
  // that link (meshsync_tree_claim).
  input  logic [NumIn-1:0]                                          in_tree_i,
  input  logic [NumIn*meshsync_pkg::NumPorts-1:0]                   in_child_i,
  input  logic [NumIn*meshsync_pkg::NumPorts*meshsync_pkg::CoordW-1:0] in_child_x_i,
  input  logic [NumIn*meshsync_pkg::NumPorts*meshsync_pkg::CoordW-1:0] in_child_y_i,
  input  logic [NumIn*meshsync_pkg::NumPorts-1:0]                   in_child_route_i,
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
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned HeadBit = meshsync_pkg::head_bit(FlitW);

  always_comb begin
    out_flit_o = '0;
    out_vc_o = '0;
    for (int o = 0; o < NumOut; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if (gnt_idx_i[o*IdxW +: IdxW] == IdxW'(i)) begin
          out_flit_o[o*FlitW +: FlitW] = in_flit_i[i*FlitW +: FlitW];
          out_vc_o[o*VcW +: VcW] = in_vc_i[i*VcW +: VcW];
          if (o >= 1 && o < NumPorts) begin
            if (in_promote_i[i]) begin
              out_flit_o[o*FlitW + HeadBit] = 1'b1;
            end
            if (in_tree_i[i] && in_child_i[i*NumPorts + o] && in_flit_i[i*FlitW + HeadBit]) begin
              out_flit_o[o*FlitW + meshsync_pkg::DestXLsb +: CoordW] = in_child_x_i[(i*NumPorts + o)*CoordW +: CoordW];
              out_flit_o[o*FlitW + meshsync_pkg::DestYLsb +: CoordW] = in_child_y_i[(i*NumPorts + o)*CoordW +: CoordW];
              out_flit_o[o*FlitW + meshsync_pkg::RouteBit] = in_child_route_i[i*NumPorts + o];
            end
          end
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

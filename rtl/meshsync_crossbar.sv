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
  parameter int unsigned IdxW = 3,
  /// Bits of a VC number.
  parameter int unsigned VcW = meshsync_pkg::ClassVcW
) (
  input  logic [NumIn*FlitW-1:0]                                    in_flit_i,
  // Per input: the VC its flit takes at the output (a unicast worm's allocated VC).
  input  logic [NumIn*VcW-1:0]                                      in_vc_i,
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
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::ClassVcW-1:0]  em_vc_i,
  input  logic [NumOut-1:0]                                         gnt_valid_i,
  input  logic [NumOut*IdxW-1:0]                                    gnt_idx_i,
  output logic [NumOut-1:0]                                         out_valid_o,
  output logic [NumOut*VcW-1:0]                                     out_vc_o,
  output logic [NumOut*FlitW-1:0]                                   out_flit_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned ClassVcW = meshsync_pkg::ClassVcW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;

  // The ports, one field per input, emitter offer or output: unpacked and packed here
  // (Yosys 0.23 takes no array ports).
  logic [FlitW-1:0] in_flit [NumIn];
  logic [VcW-1:0] in_vc [NumIn];
  logic [NumPorts-1:0] in_child [NumIn];
  logic [NumPorts-1:0] in_child_route [NumIn];
  logic [CoordW-1:0] in_child_x [NumIn][NumPorts];
  logic [CoordW-1:0] in_child_y [NumIn][NumPorts];
  for (genvar i = 0; i < NumIn; i++) begin : gen_unpack_input
    assign in_flit[i] = in_flit_i[i*FlitW +: FlitW];
    assign in_vc[i] = in_vc_i[i*VcW +: VcW];
    assign in_child[i] = in_child_i[i*NumPorts +: NumPorts];
    assign in_child_route[i] = in_child_route_i[i*NumPorts +: NumPorts];
    for (genvar p = 0; p < NumPorts; p++) begin : gen_port
      assign in_child_x[i][p] = in_child_x_i[(i*NumPorts + p)*CoordW +: CoordW];
      assign in_child_y[i][p] = in_child_y_i[(i*NumPorts + p)*CoordW +: CoordW];
    end
  end
  logic [FlitW-1:0] em_flit [NumPorts];
  logic [VcW-1:0] em_vc [NumPorts];
  for (genvar p = 0; p < NumPorts; p++) begin : gen_unpack_emitter
    assign em_flit[p] = em_flit_i[p*FlitW +: FlitW];
    assign em_vc[p] = VcW'(em_vc_i[p*ClassVcW +: ClassVcW]);
  end
  logic [IdxW-1:0] gnt_idx [NumOut];
  logic [FlitW-1:0] out_flit [NumOut];
  logic [VcW-1:0] out_vc [NumOut];
  for (genvar o = 0; o < NumOut; o++) begin : gen_output
    assign gnt_idx[o] = gnt_idx_i[o*IdxW +: IdxW];
    assign out_flit_o[o*FlitW +: FlitW] = out_flit[o];
    assign out_vc_o[o*VcW +: VcW] = out_vc[o];
  end

  // The flit a link carries, changed on its way.
  meshsync_pkg::flit_t flit;

  always_comb begin
    flit = '0;
    for (int o = 0; o < NumOut; o++) begin
      out_flit[o] = '0;
      out_vc[o] = '0;
      for (int i = 0; i < NumIn; i++) begin
        if (gnt_idx[o] == IdxW'(i)) begin
          flit = in_flit[i];
          // On a link: a tree head's copy to a child (whether it is a head is read as the
          // flit came), and the forwarded worm's head.
          if (o >= 1 && o < NumPorts) begin
            if (in_tree_i[i] && in_child[i][o] && flit.head) begin
              flit.f.hdr.dest_x = in_child_x[i][o];
              flit.f.hdr.dest_y = in_child_y[i][o];
              flit.f.hdr.route = in_child_route[i][o];
            end
            if (in_promote_i[i]) flit.head = 1'b1;
          end
          out_flit[o] = flit;
          out_vc[o] = in_vc[i];
        end
      end
    end
    for (int o = 0; o < NumPorts; o++) begin
      if (HasEmitter && (gnt_idx[o] == IdxW'(NumIn))) begin
        out_flit[o] = em_flit[o];
        out_vc[o] = em_vc[o];
      end
    end
  end

  assign out_valid_o = gnt_valid_i;

  if (!HasEmitter) begin : gen_no_emitter
    logic unused_emitter;
    assign unused_emitter = ^{em_flit_i, em_vc_i};
  end

endmodule

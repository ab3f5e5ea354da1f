// The first hop from here to each child of one barrier register, by the child's route:
// the emitter's releases and a tree head's claim both send to a register's children.
// Takes the children in the register's coordinate widths and gives them in the flit's.
module meshsync_child_hops #(
  /// Children one register holds.
  parameter int unsigned MaxChildren = 8,
  /// Bits of an x coordinate in the register.
  parameter int unsigned CoordXW = 3,
  /// Bits of a y coordinate in the register.
  parameter int unsigned CoordYW = 3
) (
  input  logic [meshsync_pkg::CoordW-1:0]             here_x_i,
  input  logic [meshsync_pkg::CoordW-1:0]             here_y_i,
  // Child j at j*CoordXW +: CoordXW (x), j*CoordYW +: CoordYW (y), bit j (route, 1: YX).
  input  logic [MaxChildren*CoordXW-1:0]              child_x_i,
  input  logic [MaxChildren*CoordYW-1:0]              child_y_i,
  input  logic [MaxChildren-1:0]                      child_route_i,
  // The children's coordinates in the flit's width, and each child's output port.
  output logic [MaxChildren*meshsync_pkg::CoordW-1:0] child_x_o,
  output logic [MaxChildren*meshsync_pkg::CoordW-1:0] child_y_o,
  output logic [MaxChildren*meshsync_pkg::PortW-1:0]  port_o
);

  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned PortW = meshsync_pkg::PortW;

  // Per child: its coordinates widened to the flit's, and its first hop.
  logic [CoordW-1:0] x [MaxChildren];
  logic [CoordW-1:0] y [MaxChildren];
  logic [PortW-1:0] port [MaxChildren];

  for (genvar j = 0; j < MaxChildren; j++) begin : gen_child
    assign x[j] = CoordW'(child_x_i[j*CoordXW +: CoordXW]);
    assign y[j] = CoordW'(child_y_i[j*CoordYW +: CoordYW]);
    meshsync_route u_route (
      .here_x_i (here_x_i),
      .here_y_i (here_y_i),
      .dest_x_i (x[j]),
      .dest_y_i (y[j]),
      .yx_i     (child_route_i[j]),
      .port_o   (port[j])
    );
    assign child_x_o[j*CoordW +: CoordW] = x[j];
    assign child_y_o[j*CoordW +: CoordW] = y[j];
    assign port_o[j*PortW +: PortW] = port[j];
  end

endmodule

// Dimension-order route computation (geometry.hpp next_port): the output port at `here`
// for a message to `dest`, X first (R = XY) or Y first (R = YX). Local when dest = here,
// so "port == Local" is also the "addressed to this router" test.
module meshsync_route (
  input  logic [meshsync_pkg::CoordW-1:0] here_x_i,
  input  logic [meshsync_pkg::CoordW-1:0] here_y_i,
  input  logic [meshsync_pkg::CoordW-1:0] dest_x_i,
  input  logic [meshsync_pkg::CoordW-1:0] dest_y_i,
  input  logic                            yx_i,
  output logic [meshsync_pkg::PortW-1:0]  port_o
);

  logic [meshsync_pkg::PortW-1:0] port_x, port_y;
  logic differ_x, differ_y;

  assign differ_x = dest_x_i != here_x_i;
  assign differ_y = dest_y_i != here_y_i;
  assign port_x = (dest_x_i > here_x_i) ? meshsync_pkg::PortPlusX : meshsync_pkg::PortMinusX;
  assign port_y = (dest_y_i > here_y_i) ? meshsync_pkg::PortPlusY : meshsync_pkg::PortMinusY;

  always_comb begin
    port_o = meshsync_pkg::PortLocal;
    if (!yx_i) begin
      if (differ_x) port_o = port_x;
      else if (differ_y) port_o = port_y;
    end else begin
      if (differ_y) port_o = port_y;
      else if (differ_x) port_o = port_x;
    end
  end

endmodule

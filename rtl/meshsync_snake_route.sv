// Route computation in the snake subnetworks (model/core/snake.hpp snake_port): the output
// port at `here` for a multidestination worm heading for `dest` in Hu (labels rise) or Hl
// (labels fall). Labels run east on even rows and west on odd ones, l = yW + x or
// yW + W-1-x; the rule "the neighbour with the largest label not above the destination's"
// needs no label arithmetic: in Hu the north neighbour qualifies when the destination is
// two or more rows up, or one row up and not before the north neighbour in that row's
// direction; otherwise the worm moves along its row. Hl is the mirror image. Local when
// dest = here.
module meshsync_snake_route (
  input  logic [meshsync_pkg::CoordW-1:0] here_x_i,
  input  logic [meshsync_pkg::CoordW-1:0] here_y_i,
  input  logic [meshsync_pkg::CoordW-1:0] dest_x_i,
  input  logic [meshsync_pkg::CoordW-1:0] dest_y_i,
  // 0: Hu, 1: Hl.
  input  logic                            low_i,
  output logic [meshsync_pkg::PortW-1:0]  port_o
);

  localparam int unsigned CoordW = meshsync_pkg::CoordW;

  logic here_even, next_even, prev_even, up, down, one_up, one_down;
  logic [CoordW:0] y_up, y_down;

  assign here_even = !here_y_i[0];
  // Row y+1 runs in the opposite direction of row y, and so does row y-1.
  assign next_even = !here_even;
  assign prev_even = !here_even;
  assign y_up = {1'b0, here_y_i} + 1'b1;
  assign y_down = {1'b0, here_y_i} - 1'b1;
  assign one_up = {1'b0, dest_y_i} == y_up;
  assign one_down = (here_y_i != '0) && ({1'b0, dest_y_i} == y_down);
  // l(north) <= l(dest) (Hu) and l(south) >= l(dest) (Hl).
  assign up = ({1'b0, dest_y_i} > y_up) ||
              (one_up && (next_even ? here_x_i <= dest_x_i : here_x_i >= dest_x_i));
  assign down = ((here_y_i != '0) && ({1'b0, dest_y_i} < y_down)) ||
                (one_down && (prev_even ? here_x_i >= dest_x_i : here_x_i <= dest_x_i));

  always_comb begin
    if (dest_x_i == here_x_i && dest_y_i == here_y_i) begin
      port_o = meshsync_pkg::PortLocal;
    end else if (!low_i) begin
      if (up) port_o = meshsync_pkg::PortPlusY;
      else port_o = here_even ? meshsync_pkg::PortPlusX : meshsync_pkg::PortMinusX;
    end else begin
      if (down) port_o = meshsync_pkg::PortMinusY;
      else port_o = here_even ? meshsync_pkg::PortMinusX : meshsync_pkg::PortPlusX;
    end
  end

endmodule

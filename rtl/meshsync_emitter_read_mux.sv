// The register file's read port for the staged emitter (meshsync_barrier_emitter): one
// register's scalar fields and one of its children, by address (combinational: the fields
// as they are in this cycle).
module meshsync_emitter_read_mux #(
  parameter int unsigned NumRegs = 4,
  parameter int unsigned MaxChildren = 4,
  parameter int unsigned CoordXW = 3,
  parameter int unsigned CoordYW = 3,
  parameter int unsigned NumChildrenW = 3,
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  localparam int unsigned ChildW = (MaxChildren > 1) ? $clog2(MaxChildren) : 1
) (
  input  logic [RegW-1:0]                              rd_reg_i,
  input  logic [ChildW-1:0]                            rd_child_i,
  // All registers' fields.
  input  logic [NumRegs*meshsync_pkg::GidW-1:0]        gid_i,
  input  logic [NumRegs-1:0]                           parent_valid_i,
  input  logic [NumRegs*CoordXW-1:0]                   parent_x_i,
  input  logic [NumRegs*CoordYW-1:0]                   parent_y_i,
  input  logic [NumRegs-1:0]                           route_i,
  input  logic [NumRegs*meshsync_pkg::DataW-1:0]       slot_i,
  input  logic [NumRegs*NumChildrenW-1:0]              num_children_i,
  input  logic [NumRegs*MaxChildren*CoordXW-1:0]       child_x_i,
  input  logic [NumRegs*MaxChildren*CoordYW-1:0]       child_y_i,
  input  logic [NumRegs*MaxChildren-1:0]               child_route_i,
  // The addressed register's scalar fields and child.
  output logic [meshsync_pkg::GidW-1:0]                rd_gid_o,
  output logic                                         rd_parent_valid_o,
  output logic [CoordXW-1:0]                           rd_parent_x_o,
  output logic [CoordYW-1:0]                           rd_parent_y_o,
  output logic                                         rd_route_o,
  output logic [meshsync_pkg::DataW-1:0]               rd_slot_o,
  output logic [NumChildrenW-1:0]                      rd_num_children_o,
  output logic [CoordXW-1:0]                           rd_child_x_o,
  output logic [CoordYW-1:0]                           rd_child_y_o,
  output logic                                         rd_child_route_o
);

  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  localparam int unsigned NumChildSlots = NumRegs * MaxChildren;
  localparam int unsigned FlatW = (NumChildSlots > 1) ? $clog2(NumChildSlots) : 1;

  // Reads by a variable index stay part-selects of the flat ports: Yosys 0.23 maps them to
  // one shifter, where an unpacked array read by the same index becomes a compare-and-mux
  // per element (668 more cells in default-regs16; docs/rtl.md, "Typed flits, indexed
  // arrays").
  logic [FlatW-1:0] flat;  // reg * MaxChildren + child
  assign flat = FlatW'(rd_reg_i) * FlatW'(MaxChildren) + FlatW'(rd_child_i);

  assign rd_gid_o = gid_i[rd_reg_i*GidW +: GidW];
  assign rd_parent_valid_o = parent_valid_i[rd_reg_i];
  assign rd_parent_x_o = parent_x_i[rd_reg_i*CoordXW +: CoordXW];
  assign rd_parent_y_o = parent_y_i[rd_reg_i*CoordYW +: CoordYW];
  assign rd_route_o = route_i[rd_reg_i];
  assign rd_slot_o = slot_i[rd_reg_i*DataW +: DataW];
  assign rd_num_children_o = num_children_i[rd_reg_i*NumChildrenW +: NumChildrenW];
  assign rd_child_x_o = child_x_i[flat*CoordXW +: CoordXW];
  assign rd_child_y_o = child_y_i[flat*CoordYW +: CoordYW];
  assign rd_child_route_o = child_route_i[flat];

endmodule

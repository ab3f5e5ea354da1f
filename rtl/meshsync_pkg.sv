// Constants of the router contract (docs/microarchitecture.md): port and VC order, the
// flit format and the sync message codes. Modules refer to them as meshsync_pkg::Name
// (Yosys 0.23 reads packages but not `import`).
package meshsync_pkg;

  // Waiver: Verilator 5.006 reports every package constant that a module importing the
  // package by name does not use, once per module. Each constant here is used somewhere;
  // the waiver covers this package's declarations only.
  /* verilator lint_off UNUSEDPARAM */

  // Ports, in the normative index order: round-robin order of both arbiters and the order
  // in which the barrier unit takes messages within a cycle.
  localparam int unsigned NumPorts = 5;
  localparam int unsigned NumVcs = 5;
  localparam int unsigned PortW = 3;
  localparam int unsigned VcW = 3;
  localparam logic [2:0] PortLocal = 3'd0;
  localparam logic [2:0] PortPlusX = 3'd1;
  localparam logic [2:0] PortMinusX = 3'd2;
  localparam logic [2:0] PortPlusY = 3'd3;
  localparam logic [2:0] PortMinusY = 3'd4;
  // Not a port: the input buffer entry is taken by the barrier unit.
  localparam logic [2:0] OutConsume = 3'd5;

  // VC 0 carries XY worms (ordinary messages, CP's multidestination worms), VC 1 sync
  // messages with R = XY, VC 2 with R = YX, VC 3 multidestination worms routed in the
  // snake subnetworks, VC 4 tree worms (docs/deadlock.md, docs/tree-multicast.md).
  localparam logic [2:0] VcWorm = 3'd0;
  localparam logic [2:0] VcSyncXy = 3'd1;
  localparam logic [2:0] VcSyncYx = 3'd2;
  localparam logic [2:0] VcSnake = 3'd3;
  localparam logic [2:0] VcTree = 3'd4;

  // Flit format. Bits FlitW-1..FlitW-3 are head, tail, sync (31..29 for the 32-bit flit
  // of the contract); the fields of a head or sync flit sit at fixed low positions.
  localparam int unsigned CoordW = 7;  // dest_x and dest_y fields (up to 128x128)
  localparam int unsigned DestXLsb = 0;
  localparam int unsigned DestYLsb = 7;
  localparam int unsigned DataLsb = 14;
  localparam int unsigned DataW = 4;
  localparam int unsigned GidLsb = 18;
  localparam int unsigned GidW = 8;
  localparam int unsigned TypeLsb = 26;
  localparam int unsigned TypeW = 2;
  localparam int unsigned RouteBit = 28;
  // Address flits of a multidestination worm (head and the address flits behind it).
  localparam int unsigned McastBit = 27;
  localparam int unsigned BaseLsb = 25;
  localparam int unsigned BaseW = 2;
  localparam int unsigned MoreBit = 24;
  // The head's forced first hop, an output port (PortLocal: none); only the router the
  // worm is injected into honours it (MP's quadrant ports).
  localparam int unsigned FirstLsb = 21;
  localparam int unsigned FirstW = 3;
  localparam logic [1:0] BaseXY = 2'd0;
  localparam logic [1:0] BaseHigh = 2'd1;
  localparam logic [1:0] BaseLow = 2'd2;
  // A tree worm's head (mcast = 1, base = 3): its group at bits 24:17.
  localparam logic [1:0] BaseTree = 2'd3;
  localparam int unsigned TreeGidLsb = 17;
  // Fields below the three flag bits, common to every flit width >= 32.
  localparam int unsigned FieldsW = 29;

  // Sync message types (2 bits).
  localparam logic [1:0] SyncArrive = 2'd0;
  localparam logic [1:0] SyncRelease = 2'd1;
  localparam logic [1:0] SyncSetup = 2'd2;
  localparam logic [1:0] SyncTeardown = 2'd3;

  // Sync data in reduction: the sender's child slot (0 C+X, 1 C-X, 2 C+Y, 3 C-Y), the local
  // process, or none (CS children: counted only).
  localparam int unsigned NumSlots = 5;
  localparam logic [3:0] SlotLocal = 4'd4;
  localparam logic [3:0] SlotNone = 4'd15;

  // Software register port operations (the NI's ProgramBarrier / FreeBarrier).
  localparam logic [1:0] RegOpNone = 2'd0;
  localparam logic [1:0] RegOpProgram = 2'd1;
  localparam logic [1:0] RegOpFree = 2'd2;

  /* verilator lint_on UNUSEDPARAM */

endpackage

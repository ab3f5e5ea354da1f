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
  localparam int unsigned PortW = 3;
  // The five VC classes below, numbered 0-4 in every router; a router with more than one
  // unicast VC (UnicastVcs) has VCs ClassVcs.. after them (unicast_vc), so its VC count
  // and VC width are its own (meshsync_router's NumVcs and VcW). The barrier unit and
  // emitter see the classes only, in ClassVcW bits.
  localparam int unsigned ClassVcs = 5;
  localparam int unsigned ClassVcW = 3;
  localparam int unsigned MaxUnicastVcs = 8;
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
  // Unicast VC `lane` (0 .. UnicastVcs - 1) of a router: VC 0, then the VCs after the
  // classes (docs/microarchitecture.md, "Unicast VCs"; model/core/flit.hpp unicast_vc).
  function automatic int unicast_vc(input int lane);
    unicast_vc = (lane == 0) ? 0 : ClassVcs + lane - 1;
  endfunction
  function automatic int unicast_lane(input int vc);
    unicast_lane = (vc == 0) ? 0 : vc - ClassVcs + 1;
  endfunction
  function automatic bit is_unicast_vc(input int vc);
    is_unicast_vc = (vc == 0) || (vc >= ClassVcs);
  endfunction
  // Bits of a VC number in a router with `vcs` VCs.
  function automatic int vc_width(input int vcs);
    vc_width = (vcs > 8) ? 4 : 3;
  endfunction

  // Flit format. The three flag bits sit at the top of the flit, whatever its width
  // (31..29 for the 32-bit flit of the contract): head, tail, sync. The fields of a head
  // or sync flit sit at fixed low positions.
  function automatic int head_bit(input int flit_w);
    head_bit = flit_w - 1;
  endfunction
  function automatic int tail_bit(input int flit_w);
    tail_bit = flit_w - 2;
  endfunction
  function automatic int sync_bit(input int flit_w);
    sync_bit = flit_w - 3;
  endfunction
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

  // The flit as a type (docs/microarchitecture.md, "Flit format"). Head and tail sit on
  // top; below them the 30 bits are either a head flit's header (a worm head, a sync
  // message, and the address flits of a multidestination worm) or a body flit's payload.
  // A header's bits 27:14 mean different things for a sync message, a worm and a tree
  // worm: a union of the three views. Positions match the *Lsb / *Bit constants above
  // and model/core/flit_format.hpp (tb/rtl/test_contract.cpp recomputes them).
  typedef struct packed {
    logic [TypeW-1:0]  msg;    // SyncArrive, SyncRelease, SyncSetup, SyncTeardown
    logic [GidW-1:0]   gid;
    logic [DataW-1:0]  data;   // the sender's child slot (reduction), or 0
  } sync_view_t;
  typedef struct packed {
    logic              mcast;  // a multidestination worm's head or address flit
    logic [BaseW-1:0]  base;   // its subnetwork: BaseXY, BaseHigh, BaseLow, BaseTree
    logic              more;   // another address flit follows
    logic [FirstW-1:0] first;  // the forced first hop (PortLocal: none)
    logic [6:0]        spare;
  } worm_view_t;
  typedef struct packed {
    logic              mcast;  // 1
    logic [BaseW-1:0]  base;   // BaseTree
    logic [GidW-1:0]   gid;    // the tree's barrier register group
    logic [2:0]        spare;
  } tree_view_t;
  typedef union packed {
    sync_view_t sync;
    worm_view_t worm;
    tree_view_t tree;
  } header_view_t;
  typedef struct packed {
    logic              sync;   // a sync message (on VC 1 or 2), not a worm
    logic              route;  // R: 1 routes YX
    header_view_t      view;
    logic [CoordW-1:0] dest_y;
    logic [CoordW-1:0] dest_x;
  } header_t;
  typedef union packed {
    header_t     hdr;      // a head flit's (or an address flit's) fields
    logic [29:0] payload;  // a body flit's data word
  } fields_t;
  typedef struct packed {
    logic    head;
    logic    tail;
    fields_t f;
  } flit_t;
  // $bits(flit_t), the only FlitW the router takes (Yosys 0.23 takes no $bits of a type;
  // tb/rtl/test_contract.cpp checks the two agree).
  localparam int unsigned FlitBits = 32;

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
  // A child count as software states it: wide enough for any MaxChildren + 1 ("too many")
  // of a router (the router checks its NumChildrenW against it).
  localparam int unsigned ChildCountW = 8;

  // One software request to the register file, the children aside: their number is the
  // router's MaxChildren, which a package type cannot know (and Yosys 0.23 misreads a
  // member select after an index into a packed array of structs), so they travel beside
  // it as flat vectors. Coordinates are in the flit's field width (the largest mesh); the
  // register file keeps the bits its mesh needs.
  typedef struct packed {
    logic [1:0]             op;            // RegOp*
    logic [GidW-1:0]        gid;
    logic                   transit;       // a CS path entry as well
    logic                   parent_valid;  // 0 at the root
    logic [CoordW-1:0]      parent_x;
    logic [CoordW-1:0]      parent_y;
    logic                   route;         // R of the messages to the parent (1: YX)
    logic [DataW-1:0]       slot;          // the sender's child slot at its parent
    logic [ChildCountW-1:0] num_children;
  } reg_req_t;

  // In-network reduction (meshsync_reduction_alu): the operation and the element type,
  // in the order of the software's ReduceOp and ElementType (model/core/reduction_element.hpp).
  typedef enum logic [2:0] {
    ReduceSum = 3'd0,
    ReduceMin = 3'd1,
    ReduceMax = 3'd2,
    ReduceAnd = 3'd3,
    ReduceOr  = 3'd4,
    ReduceXor = 3'd5
  } reduce_op_t;
  // A reduction message's descriptor flit (its payload bits 21:0): op in 2:0, type in 4:3,
  // all (1: allreduce) in 5, the element count in 21:6; bits 29:22 are 0.
  localparam int unsigned DescW = 22;
  typedef enum logic [1:0] {
    ReduceInt32   = 2'd0,
    ReduceInt64   = 2'd1,
    ReduceFloat32 = 2'd2
  } reduce_type_t;

  // VC owners: per output, the VCs a message holds from its head to its tail (owner slot
  // s of output o is bit owner_slot(o, s, owners) of the owner buses, `owners` being the
  // router's VC count). Every VC has one: a worm holds VC 0, 3, 4 or a unicast VC after
  // the classes (owner slot = its VC), a reduction message (a sync worm) VC 1 or 2, and a
  // single-flit sync message takes and frees its VC in one grant
  // (docs/reduction-hardware.md).
  localparam int unsigned OwnerWorm = 0;    // VC 0
  localparam int unsigned OwnerSnake = 1;   // VC 3
  localparam int unsigned OwnerTree = 2;    // VC 4
  localparam int unsigned OwnerSyncXy = 3;  // VC 1
  localparam int unsigned OwnerSyncYx = 4;  // VC 2
  function automatic int owner_slot(input int port, input int owner, input int owners);
    owner_slot = port * owners + owner;
  endfunction
  // The VC of an owner slot, and the owner slot of a VC.
  function automatic int owner_vc(input int owner);
    owner_vc = (owner >= ClassVcs) ? owner : (owner == OwnerWorm) ? 32'(VcWorm) :
               (owner == OwnerSnake) ? 32'(VcSnake) : (owner == OwnerTree) ? 32'(VcTree) :
               (owner == OwnerSyncXy) ? 32'(VcSyncXy) : 32'(VcSyncYx);
  endfunction
  function automatic int vc_owner(input int vc);
    vc_owner = (vc >= ClassVcs) ? vc : (vc == 32'(VcWorm)) ? OwnerWorm : (vc == 32'(VcSnake)) ? OwnerSnake :
               (vc == 32'(VcTree)) ? OwnerTree : (vc == 32'(VcSyncXy)) ? OwnerSyncXy : OwnerSyncYx;
  endfunction
  // The owner slot of a sync VC (VC 1 or 2).
  function automatic int sync_owner(input logic yx);
    sync_owner = yx ? OwnerSyncYx : OwnerSyncXy;
  endfunction

  // The output that takes input i's flits for the NI: Local, or in an all-port router
  // (ni_ports > 1) a link input's own ejection output 4 + i.
  function automatic int eject_of(input int i, input int ni_ports);
    eject_of = (ni_ports > 1 && i >= 1 && i < NumPorts) ? NumPorts + i - 1 : 0;
  endfunction

  // The kinds of flit the coverage counts at each port (docs/verification.md, "Coverage"):
  // a head says what its message is (a unicast worm, a multidestination path worm, a tree
  // worm, or one of the four sync messages); a flit after a head is a body flit or the tail.
  localparam logic [3:0] KindUnicast = 4'd0;
  localparam logic [3:0] KindPath = 4'd1;
  localparam logic [3:0] KindTree = 4'd2;
  localparam logic [3:0] KindArrive = 4'd3;
  localparam logic [3:0] KindRelease = 4'd4;
  localparam logic [3:0] KindSetup = 4'd5;
  localparam logic [3:0] KindTeardown = 4'd6;
  localparam logic [3:0] KindBody = 4'd7;
  localparam logic [3:0] KindTail = 4'd8;
  function automatic logic [3:0] flit_kind(input flit_t f);
    if (!f.head) flit_kind = f.tail ? KindTail : KindBody;
    else if (f.f.hdr.sync) flit_kind = KindArrive + 4'(f.f.hdr.view.sync.msg);
    else if (!f.f.hdr.view.worm.mcast) flit_kind = KindUnicast;
    else flit_kind = (f.f.hdr.view.worm.base == BaseTree) ? KindTree : KindPath;
  endfunction

  /* verilator lint_on UNUSEDPARAM */

endpackage

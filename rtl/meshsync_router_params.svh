// The router's parameters after the mesh size, one list for every module that takes
// them: meshsync_router, meshsync_mesh (which passes them on) and meshsync_parameter_check
// (which refuses a router that cannot be built). Each of those modules declares MeshW and
// MeshH itself (the mesh top's default size is smaller), then `includes this file, so a
// parameter or a default is written once. The defaults are the design point an architect
// synthesizes (docs/rtl.md, "The design point"). Included inside a #( ... ) parameter list:
// no trailing comma. Verilator needs -I rtl to find it (scripts/lint-rtl, rtl/sources.cmake's
// MESHSYNC_VERILATE_OPT); Yosys finds it beside the including file.
  /// Flit width: the contract's 32-bit format (head, tail, sync, R, type, gid, data, dest).
  parameter int unsigned FlitW = 32,
  /// Worm VC (VC 0 and VC 3) input buffer depth, and the credits of each output's VC 0 and 3.
  parameter int unsigned BufferDepth = 4,
  /// Depth of each sync VC input buffer (VC 1, VC 2), and their credits.
  parameter int unsigned SyncBufferDepth = 2,
  /// Depth of the tree VC input buffer (VC 4), and its credits: the longest tree worm.
  /// 0: a router without the tree VC (no tree worms).
  parameter int unsigned TreeBufferDepth = 10,
  /// Multidestination (path) worms: absorb-and-forward, snake routing and the snake VC
  /// (VC 3, BufferDepth deep). 0: a router for unicast worms only, without VC 3.
  parameter int unsigned PathWorms = 1,
  /// Barrier registers (CAM entries); 0, 4 and 16 are the measured points.
  parameter int unsigned NumRegs = 4,
  /// Children one barrier register holds (BTM needs 4).
  parameter int unsigned MaxChildren = 4,
  /// Router delay when a router only forwards (cycles, >= 1): ready = arrival + Trn - 1.
  parameter int unsigned Trn = 5,
  /// Router delay when a sync message is processed (cycles, >= 1).
  parameter int unsigned Trm = 30,
  /// 32-bit words of a vector a barrier register reduces (docs/reduction-hardware.md): five
  /// lanes of this many words per register. 0: no in-network reduction (the design point).
  parameter int unsigned ReduceWords = 0,
  /// NI channels: 1 (one-port) or 4 (all-port: injection channels 1-3 enter on inputs
  /// 5-7, and each link input p ejects on its own output 4+p; docs/microarchitecture.md).
  parameter int unsigned NiPorts = 1,
  /// Unicast VCs per input, 1 to 8 (docs/microarchitecture.md "Unicast VCs"): VC 0 and
  /// VCs 5.., each BufferDepth deep; a worm head takes a free one of its output's at every
  /// hop (VC allocation). 1: every unicast worm on VC 0, the papers' router.
  parameter int unsigned UnicastVcs = 1,
  /// Which free unicast VC with a credit a head takes: 0 round-robin (from the one after
  /// the output's last), 1 the one with the most credits (the lowest on a tie).
  parameter int unsigned VcAllocation = 0,
  /// The allocation pipeline's head stages (docs/microarchitecture.md "Allocation
  /// pipeline"): cycles a worm head spends at its VC's front in route computation and in
  /// VC allocation before its Trn (0 and 0: lookahead routing, speculative allocation).
  parameter int unsigned RoutingStage = 0,
  parameter int unsigned VaStage = 0

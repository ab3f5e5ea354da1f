// The barrier emitter (contract step 6, router_core.cpp select_batch): it sends one
// register's batch at a time. When it holds none at the start of a cycle it takes the
// lowest-index register whose batch is due and offers its messages from that cycle on:
//   - a reduction batch: one message to the parent (at the root, to the local NI);
//   - a release batch: per output port, the first child (in child order) still to be
//     sent through it whose (port, VC) has a credit, so a BTM's children leave through
//     their four ports in one cycle; the local release once no child is left at the start
//     of a cycle (the local process learns of the release after its children did, so
//     software cannot free the register while the batch still reads it).
// Messages are built from the register's fields as they are now: the batch holds no copy,
// and a software write to the register cancels what is left of it.
module meshsync_barrier_emitter #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Barrier registers (>= 1).
  parameter int unsigned NumRegs = 4,
  /// Children one register holds.
  parameter int unsigned MaxChildren = 8,
  /// Bits of an x coordinate.
  parameter int unsigned CoordXW = 3,
  /// Bits of a y coordinate.
  parameter int unsigned CoordYW = 3,
  /// Width of a register's child count.
  parameter int unsigned NumChildrenW = 4
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  input  logic [CoordXW-1:0]                           here_x_i,
  input  logic [CoordYW-1:0]                           here_y_i,
  // Batches due, and their kind (1: releases).
  input  logic [NumRegs-1:0]                           batch_due_i,
  input  logic [NumRegs-1:0]                           batch_release_i,
  output logic [NumRegs-1:0]                           batch_load_o,
  output logic [NumRegs-1:0]                           emitting_o,
  // The registers' fields (current state).
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
  // Software writes register k at the end of this cycle.
  input  logic [NumRegs-1:0]                           written_i,
  // Per output port o and VC v (bit o*NumVcs+v): a credit is available, or o is Local.
  input  logic [meshsync_pkg::NumPorts*meshsync_pkg::NumVcs-1:0] credit_ok_i,
  // The message offered to each output port, and whether it won the port.
  output logic [meshsync_pkg::NumPorts-1:0]            offer_o,
  output logic [meshsync_pkg::NumPorts*FlitW-1:0]      offer_flit_o,
  output logic [meshsync_pkg::NumPorts*meshsync_pkg::VcW-1:0] offer_vc_o,
  input  logic [meshsync_pkg::NumPorts-1:0]            grant_i,
  // Holds no batch (state at the start of the cycle).
  output logic                                         idle_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned NumVcs = meshsync_pkg::NumVcs;
  localparam int unsigned VcW = meshsync_pkg::VcW;
  localparam int unsigned CoordW = meshsync_pkg::CoordW;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned DataW = meshsync_pkg::DataW;
  localparam int unsigned PortW = meshsync_pkg::PortW;
  localparam int unsigned RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1;

  function automatic logic [FlitW-1:0] make_sync(
    input logic              yx,
    input logic [1:0]        stype,
    input logic [GidW-1:0]   gid,
    input logic [DataW-1:0]  data,
    input logic [CoordW-1:0] dest_x,
    input logic [CoordW-1:0] dest_y
  );
    logic [FlitW-1:0] fl;
    fl = '0;
    fl[meshsync_pkg::head_bit(FlitW)] = 1'b1;
    fl[meshsync_pkg::tail_bit(FlitW)] = 1'b1;
    fl[meshsync_pkg::sync_bit(FlitW)] = 1'b1;
    fl[meshsync_pkg::RouteBit] = yx;
    fl[meshsync_pkg::TypeLsb +: meshsync_pkg::TypeW] = stype;
    fl[meshsync_pkg::GidLsb +: GidW] = gid;
    fl[meshsync_pkg::DataLsb +: DataW] = data;
    fl[meshsync_pkg::DestYLsb +: CoordW] = dest_y;
    fl[meshsync_pkg::DestXLsb +: CoordW] = dest_x;
    make_sync = fl;
  endfunction

  // ---------------------------------------------------------------------------------------
  // The batch: q at the start of the cycle, m after this cycle's selection
  // ---------------------------------------------------------------------------------------
  logic active_q, active_m, active_d;
  logic [RegW-1:0] idx_q, idx_m;
  logic up_q, up_m, up_d;               // the reduction message is still to go
  logic [MaxChildren-1:0] child_q, child_m, child_d;
  logic local_q, local_m, local_d;      // the local release is still to go
  logic load;
  logic [RegW-1:0] pick;

  always_comb begin
    load = 1'b0;
    pick = '0;
    for (int k = NumRegs - 1; k >= 0; k--) begin
      if (batch_due_i[k]) begin
        load = !active_q;
        pick = RegW'(k);
      end
    end
  end

  // The register's child slots in use: the pending bits of a new release batch.
  logic [MaxChildren-1:0] batch_mask;
  always_comb begin
    for (int j = 0; j < MaxChildren; j++) begin
      batch_mask[j] = NumChildrenW'(j) < num_children_i[pick*NumChildrenW +: NumChildrenW];
    end
  end

  always_comb begin
    active_m = active_q;
    idx_m = idx_q;
    up_m = up_q;
    child_m = child_q;
    local_m = local_q;
    if (load) begin
      active_m = 1'b1;
      idx_m = pick;
      up_m = !batch_release_i[pick];
      child_m = batch_release_i[pick] ? batch_mask : '0;
      local_m = batch_release_i[pick];
    end
  end

  for (genvar k = 0; k < NumRegs; k++) begin : gen_flags
    assign batch_load_o[k] = load && (pick == RegW'(k));
    assign emitting_o[k] = active_q && (idx_q == RegW'(k));
  end

  // ---------------------------------------------------------------------------------------
  // The selected register's messages and their output ports
  // ---------------------------------------------------------------------------------------
  logic [CoordW-1:0] here_x, here_y, up_x, up_y;
  logic [GidW-1:0] gid;
  logic up_self, up_yx;
  logic [DataW-1:0] up_data;
  logic [PortW-1:0] up_port;
  logic [MaxChildren*CoordW-1:0] cx, cy;
  logic [MaxChildren-1:0] cyx;
  logic [MaxChildren*PortW-1:0] cport;

  assign here_x = CoordW'(here_x_i);
  assign here_y = CoordW'(here_y_i);
  assign gid = gid_i[idx_m*GidW +: GidW];
  assign up_self = !parent_valid_i[idx_m];
  assign up_x = up_self ? here_x : CoordW'(parent_x_i[idx_m*CoordXW +: CoordXW]);
  assign up_y = up_self ? here_y : CoordW'(parent_y_i[idx_m*CoordYW +: CoordYW]);
  assign up_yx = !up_self && route_i[idx_m];
  assign up_data = up_self ? meshsync_pkg::SlotLocal : slot_i[idx_m*DataW +: DataW];

  meshsync_route u_route_up (
    .here_x_i (here_x),
    .here_y_i (here_y),
    .dest_x_i (up_x),
    .dest_y_i (up_y),
    .yx_i     (up_yx),
    .port_o   (up_port)
  );

  assign cyx = child_route_i[idx_m*MaxChildren +: MaxChildren];
  meshsync_child_hops #(
    .MaxChildren (MaxChildren),
    .CoordXW     (CoordXW),
    .CoordYW     (CoordYW)
  ) u_child_hops (
    .here_x_i      (here_x),
    .here_y_i      (here_y),
    .child_x_i     (child_x_i[idx_m*MaxChildren*CoordXW +: MaxChildren*CoordXW]),
    .child_y_i     (child_y_i[idx_m*MaxChildren*CoordYW +: MaxChildren*CoordYW]),
    .child_route_i (cyx),
    .child_x_o     (cx),
    .child_y_o     (cy),
    .port_o        (cport)
  );

  // ---------------------------------------------------------------------------------------
  // Offers, per output port
  // ---------------------------------------------------------------------------------------
  logic [NumPorts*MaxChildren-1:0] pick_child;  // one-hot: the child a port's offer serves
  logic [NumPorts-1:0] pick_up, pick_local;

  always_comb begin
    offer_o = '0;
    offer_flit_o = '0;
    offer_vc_o = '0;
    pick_child = '0;
    pick_up = '0;
    pick_local = '0;
    for (int o = 0; o < NumPorts; o++) begin
      if (up_m && (up_port == PortW'(o)) && credit_ok_i[o*NumVcs + (up_yx ? 2 : 1)]) begin
        pick_up[o] = 1'b1;
        offer_o[o] = 1'b1;
        offer_vc_o[o*VcW +: VcW] = up_yx ? meshsync_pkg::VcSyncYx : meshsync_pkg::VcSyncXy;
        offer_flit_o[o*FlitW +: FlitW] =
            make_sync(up_yx, meshsync_pkg::SyncArrive, gid, up_data, up_x, up_y);
      end
      for (int j = MaxChildren - 1; j >= 0; j--) begin
        if (child_m[j] && (cport[j*PortW +: PortW] == PortW'(o)) &&
            credit_ok_i[o*NumVcs + (cyx[j] ? 2 : 1)]) begin
          pick_child[o*MaxChildren +: MaxChildren] = '0;
          pick_child[o*MaxChildren + j] = 1'b1;
          offer_o[o] = 1'b1;
          offer_vc_o[o*VcW +: VcW] = cyx[j] ? meshsync_pkg::VcSyncYx : meshsync_pkg::VcSyncXy;
          offer_flit_o[o*FlitW +: FlitW] = make_sync(cyx[j], meshsync_pkg::SyncRelease, gid, '0,
                                                     cx[j*CoordW +: CoordW], cy[j*CoordW +: CoordW]);
        end
      end
      if ((o == 0) && local_m && (child_m == '0)) begin
        pick_local[o] = 1'b1;
        offer_o[o] = 1'b1;
        offer_vc_o[o*VcW +: VcW] = meshsync_pkg::VcSyncXy;
        offer_flit_o[o*FlitW +: FlitW] =
            make_sync(1'b0, meshsync_pkg::SyncRelease, gid, '0, here_x, here_y);
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Granted messages leave; the batch ends with its last one or a write to its register
  // ---------------------------------------------------------------------------------------
  always_comb begin
    up_d = up_m;
    child_d = child_m;
    local_d = local_m;
    for (int o = 0; o < NumPorts; o++) begin
      if (grant_i[o]) begin
        if (pick_up[o]) up_d = 1'b0;
        if (pick_local[o]) local_d = 1'b0;
        child_d = child_d & ~pick_child[o*MaxChildren +: MaxChildren];
      end
    end
    active_d = active_m && (up_d || (|child_d) || local_d) && !written_i[idx_m];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      idx_q <= '0;
      up_q <= 1'b0;
      child_q <= '0;
      local_q <= 1'b0;
    end else begin
      active_q <= active_d;
      idx_q <= idx_m;
      up_q <= up_d && active_d;
      child_q <= child_d & {MaxChildren{active_d}};
      local_q <= local_d && active_d;
    end
  end

  assign idle_o = !active_q;

endmodule

// The barrier unit (contract step 5, router_core.cpp barrier_unit): it takes the sync
// messages consumed this cycle, in input index order, and never blocks.
//   - setup / teardown at the end of their path: consumed without effect;
//   - arrive (reduction): set the flag of the sender's slot, count; when the children and
//     the local process have all arrived, clear and put one message in the outbox;
//   - release (distribution): put one release per child plus the local one in the outbox;
//   - a message whose register is no longer a member (freed while the message waited in
//     its buffer) goes on to the NI through register 0's outbox, as in the model.
// Purely combinational: the register file stores the resulting reduction state.
module meshsync_barrier_unit #(
  /// Flit width in bits.
  parameter int unsigned FlitW = 32,
  /// Barrier registers (>= 1).
  parameter int unsigned NumRegs = 4,
  /// Width of a register's child count.
  parameter int unsigned NumChildrenW = 4,
  /// Width of a register's arrival counter.
  parameter int unsigned ArrivedW = 4
) (
  input  logic [meshsync_pkg::NumPorts-1:0]          consume_i,
  input  logic [meshsync_pkg::NumPorts*FlitW-1:0]    flit_i,
  // Register file, current state.
  input  logic [NumRegs-1:0]                         valid_i,
  input  logic [NumRegs-1:0]                         member_i,
  input  logic [NumRegs*meshsync_pkg::GidW-1:0]      gid_i,
  input  logic [NumRegs*NumChildrenW-1:0]            num_children_i,
  input  logic [NumRegs*meshsync_pkg::NumSlots-1:0]  flags_i,
  input  logic [NumRegs*ArrivedW-1:0]                arrived_i,
  // Reduction state after this cycle.
  output logic [NumRegs*meshsync_pkg::NumSlots-1:0]  flags_o,
  output logic [NumRegs*ArrivedW-1:0]                arrived_o,
  // Outbox pushes, bit k*NumPorts+i: register k, caused by the message of input i.
  output logic [NumRegs*meshsync_pkg::NumPorts-1:0]  push_up_o,
  output logic [NumRegs*meshsync_pkg::NumPorts-1:0]  push_rel_o,
  // Fallback to the NI through register 0's outbox, per input.
  output logic [meshsync_pkg::NumPorts-1:0]          push_fb_o,
  // Protocol violation: an arrival on a flag already set in this epoch, or a slot number
  // the contract does not define (5..14).
  output logic                                       error_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  localparam int unsigned GidW = meshsync_pkg::GidW;
  localparam int unsigned NumSlots = meshsync_pkg::NumSlots;
  localparam int unsigned CountW = (ArrivedW > NumChildrenW) ? ArrivedW : NumChildrenW;

  logic [NumRegs-1:0] hit;
  logic [meshsync_pkg::TypeW-1:0] msg_type;
  logic [GidW-1:0] msg_gid;
  logic [meshsync_pkg::DataW-1:0] msg_slot;

  always_comb begin
    flags_o = flags_i;
    arrived_o = arrived_i;
    push_up_o = '0;
    push_rel_o = '0;
    push_fb_o = '0;
    error_o = 1'b0;
    hit = '0;
    msg_type = '0;
    msg_gid = '0;
    msg_slot = '0;
    for (int i = 0; i < NumPorts; i++) begin
      msg_type = flit_i[i*FlitW + meshsync_pkg::TypeLsb +: meshsync_pkg::TypeW];
      msg_gid = flit_i[i*FlitW + meshsync_pkg::GidLsb +: GidW];
      msg_slot = flit_i[i*FlitW + meshsync_pkg::DataLsb +: meshsync_pkg::DataW];
      for (int k = 0; k < NumRegs; k++) begin
        hit[k] = valid_i[k] && member_i[k] && (gid_i[k*GidW +: GidW] == msg_gid);
      end
      // Setup and teardown (type 2, 3) end their path here without effect.
      if (consume_i[i] && !msg_type[1]) begin
        if (!(|hit)) begin
          push_fb_o[i] = 1'b1;
        end
        for (int k = 0; k < NumRegs; k++) begin
          if (hit[k] && (msg_type == meshsync_pkg::SyncArrive)) begin
            for (int s = 0; s < NumSlots; s++) begin
              if (msg_slot == meshsync_pkg::DataW'(s)) begin
                if (flags_o[k*NumSlots + s]) error_o = 1'b1;
                flags_o[k*NumSlots + s] = 1'b1;
              end
            end
            if ((msg_slot >= meshsync_pkg::DataW'(NumSlots)) &&
                (msg_slot != meshsync_pkg::SlotNone)) begin
              error_o = 1'b1;
            end
            if (CountW'(arrived_o[k*ArrivedW +: ArrivedW]) >=
                CountW'(num_children_i[k*NumChildrenW +: NumChildrenW])) begin
              // Children + local all here: clear for the next epoch, send one message.
              push_up_o[k*NumPorts + i] = 1'b1;
              flags_o[k*NumSlots +: NumSlots] = '0;
              arrived_o[k*ArrivedW +: ArrivedW] = '0;
            end else begin
              arrived_o[k*ArrivedW +: ArrivedW] = arrived_o[k*ArrivedW +: ArrivedW] + 1'b1;
            end
          end
          if (hit[k] && (msg_type == meshsync_pkg::SyncRelease)) begin
            push_rel_o[k*NumPorts + i] = 1'b1;
          end
        end
      end
    end
  end

  // Only the sync fields of the consumed flits matter here.
  logic unused_flit;
  assign unused_flit = ^flit_i;

endmodule

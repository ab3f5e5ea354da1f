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

  // Per input: the message's fields and whether it is an arrive or a release for the
  // barrier unit (setup and teardown, types 2 and 3, end their path here without effect).
  logic [NumPorts-1:0] is_arrive, is_release;
  logic [NumPorts*GidW-1:0] msg_gid;
  logic [NumPorts*meshsync_pkg::DataW-1:0] msg_slot;
  // Bit i*NumRegs+k: input i's message is for register k, a member.
  logic [NumPorts*NumRegs-1:0] hit;
  logic [NumRegs-1:0] reg_error;

  for (genvar i = 0; i < NumPorts; i++) begin : gen_msg
    logic [meshsync_pkg::TypeW-1:0] msg_type;
    assign msg_type = flit_i[i*FlitW + meshsync_pkg::TypeLsb +: meshsync_pkg::TypeW];
    assign msg_gid[i*GidW +: GidW] = flit_i[i*FlitW + meshsync_pkg::GidLsb +: GidW];
    assign msg_slot[i*meshsync_pkg::DataW +: meshsync_pkg::DataW] =
        flit_i[i*FlitW + meshsync_pkg::DataLsb +: meshsync_pkg::DataW];
    assign is_arrive[i] = consume_i[i] && (msg_type == meshsync_pkg::SyncArrive);
    assign is_release[i] = consume_i[i] && (msg_type == meshsync_pkg::SyncRelease);
    for (genvar k = 0; k < NumRegs; k++) begin : gen_hit
      assign hit[i*NumRegs + k] = valid_i[k] && member_i[k] &&
                                  (gid_i[k*GidW +: GidW] == msg_gid[i*GidW +: GidW]);
    end
    // No member register: the message goes on to the NI (register 0's outbox).
    assign push_fb_o[i] = (is_arrive[i] || is_release[i]) && !(|hit[i*NumRegs +: NumRegs]);
  end

  // Each register takes its messages in input index order.
  for (genvar k = 0; k < NumRegs; k++) begin : gen_reg
    logic [NumSlots-1:0] flags;
    logic [ArrivedW-1:0] arrived;
    logic [NumPorts-1:0] slot_error;
    logic [meshsync_pkg::DataW-1:0] slot;

    always_comb begin
      flags = flags_i[k*NumSlots +: NumSlots];
      arrived = arrived_i[k*ArrivedW +: ArrivedW];
      slot_error = '0;
      slot = '0;
      for (int i = 0; i < NumPorts; i++) begin
        push_up_o[k*NumPorts + i] = 1'b0;
        push_rel_o[k*NumPorts + i] = hit[i*NumRegs + k] && is_release[i];
        slot = msg_slot[i*meshsync_pkg::DataW +: meshsync_pkg::DataW];
        if (hit[i*NumRegs + k] && is_arrive[i]) begin
          for (int s = 0; s < NumSlots; s++) begin
            if (slot == meshsync_pkg::DataW'(s)) begin
              slot_error[i] = flags[s];
              flags[s] = 1'b1;
            end
          end
          if ((slot >= meshsync_pkg::DataW'(NumSlots)) && (slot != meshsync_pkg::SlotNone)) begin
            slot_error[i] = 1'b1;
          end
          if (CountW'(arrived) >= CountW'(num_children_i[k*NumChildrenW +: NumChildrenW])) begin
            // Children + local all here: clear for the next epoch, send one message.
            push_up_o[k*NumPorts + i] = 1'b1;
            flags = '0;
            arrived = '0;
          end else begin
            arrived = arrived + 1'b1;
          end
        end
      end
    end

    assign flags_o[k*NumSlots +: NumSlots] = flags;
    assign arrived_o[k*ArrivedW +: ArrivedW] = arrived;
    assign reg_error[k] = |slot_error;
  end

  assign error_o = |reg_error;

  // Only the sync fields of the consumed flits matter here.
  logic unused_flit;
  assign unused_flit = ^flit_i;

endmodule

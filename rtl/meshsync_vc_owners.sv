// The VC owners of the outputs: per output and owner slot (one per VC;
// meshsync_pkg::owner_slot), the input or the barrier emitter (index NumIn) that holds
// the VC from a message's head to its tail, so that two messages never interleave on one
// VC. A message takes its VC when its head leaves (a single flit takes and frees it at
// once), and a tree worm when its head claims the output (before any flit leaves). The
// inputs read the owners through their own view, where port 0 is their NI output; the
// emitter reads the sync VCs of the five ports.
`include "meshsync_assert.svh"

module meshsync_vc_owners #(
  /// Inputs: the five ports and an all-port NI's injection channels 1-3.
  parameter int unsigned NumIn = meshsync_pkg::NumPorts,
  /// Outputs: the five ports and an all-port NI's ejection outputs.
  parameter int unsigned NumOut = meshsync_pkg::NumPorts,
  /// NI channels (1: one-port; 4: all-port, link inputs eject on their own output).
  parameter int unsigned NiPorts = 1,
  /// Width of an input index (a grant's, the claimant's).
  parameter int unsigned IdxW = 3,
  /// Width of the claimant's index.
  parameter int unsigned InW = 3,
  /// VCs, and with them owner slots per output (the classes and the unicast VCs).
  parameter int unsigned NumVcs = meshsync_pkg::ClassVcs,
  /// Bits of a VC number.
  parameter int unsigned VcW = meshsync_pkg::ClassVcW
) (
  input  logic                                             clk_i,
  input  logic                                             rst_ni,
  // The tree claim of this cycle: the outputs whose tree VC the claimant gets.
  input  logic [NumOut-1:0]                                claim_ok_i,
  input  logic [InW-1:0]                                   claim_idx_i,
  // Per output: a flit leaves on it, on which VC, its tail bit, and whose (an input's
  // index, or NumIn: the emitter's).
  input  logic [NumOut-1:0]                                leave_i,
  input  logic [NumOut*VcW-1:0]                            leave_vc_i,
  input  logic [NumOut-1:0]                                leave_tail_i,
  input  logic [NumOut*IdxW-1:0]                           leave_idx_i,
  // Per output: its tree VC is free (state at the start of the cycle).
  output logic [NumOut-1:0]                                tree_free_o,
  // Per input, per port and owner slot (port 0: the input's NI output): free / held by
  // that input.
  output logic [NumIn*meshsync_pkg::NumPorts*NumVcs-1:0]   in_free_o,
  output logic [NumIn*meshsync_pkg::NumPorts*NumVcs-1:0]   in_mine_o,
  // Per output, per owner slot: free (state at the start of the cycle), for VC allocation.
  output logic [NumOut*NumVcs-1:0]                         free_o,
  // The emitter's view, per port o and sync VC (bit o*2 + VC - 1): free / held by it.
  output logic [meshsync_pkg::NumPorts*2-1:0]              em_free_o,
  output logic [meshsync_pkg::NumPorts*2-1:0]              em_mine_o
);

  localparam int unsigned NumPorts = meshsync_pkg::NumPorts;
  // One owner slot per VC (meshsync_pkg::owner_slot, owner_vc).
  localparam int unsigned NumOwners = NumVcs;
  localparam int unsigned NumSlots = NumOut * NumOwners;
  // An owner is an input or the emitter: a grant's index.
  localparam int unsigned OwnW = IdxW;

  // Each output's leaving flit, unpacked (Yosys 0.23 takes no array ports).
  logic [VcW-1:0] leave_vc [NumOut];
  logic [IdxW-1:0] leave_idx [NumOut];
  for (genvar o = 0; o < NumOut; o++) begin : gen_unpack_leave
    assign leave_vc[o] = leave_vc_i[o*VcW +: VcW];
    assign leave_idx[o] = leave_idx_i[o*IdxW +: IdxW];
  end

  // Per owner slot (meshsync_pkg::owner_slot): held, and by whom. The registers are flat
  // vectors (slot k's owner at k * OwnW): rtl-equiv pairs flip-flops by name, and Yosys
  // names the elements of an unpacked array register apart (owner_q[0], ...). The owners
  // are unpacked and packed once, here, into owner and owner_next.
  logic [NumSlots-1:0] valid_q, valid_d;
  logic [NumSlots*OwnW-1:0] owner_q, owner_d;
  logic [OwnW-1:0] owner [NumSlots];
  logic [OwnW-1:0] owner_next [NumSlots];
  for (genvar k = 0; k < NumSlots; k++) begin : gen_owner
    assign owner[k] = owner_q[k*OwnW +: OwnW];
    assign owner_d[k*OwnW +: OwnW] = owner_next[k];
  end

  always_comb begin
    valid_d = valid_q;
    // Two loops, each short enough for Verilator to unroll (one over 12 VCs x 9 outputs
    // is not, and looks like a latch to it).
    for (int o = 0; o < NumOut; o++) begin
      for (int s = 0; s < NumOwners; s++) owner_next[o*NumOwners + s] = owner[o*NumOwners + s];
    end
    // A tree head's claim holds the tree VC of each output it got.
    for (int o = 0; o < NumOut; o++) begin
      if (claim_ok_i[o]) begin
        valid_d[meshsync_pkg::owner_slot(o, meshsync_pkg::OwnerTree, NumOwners)] = 1'b1;
        owner_next[meshsync_pkg::owner_slot(o, meshsync_pkg::OwnerTree, NumOwners)] = OwnW'(claim_idx_i);
      end
    end
    // A message that an input or the emitter wins holds the output's VC until its tail.
    for (int o = 0; o < NumOut; o++) begin
      for (int s = 0; s < NumOwners; s++) begin
        if (leave_i[o] && (leave_vc[o] == VcW'(meshsync_pkg::owner_vc(s)))) begin
          valid_d[meshsync_pkg::owner_slot(o, s, NumOwners)] = !leave_tail_i[o];
          owner_next[meshsync_pkg::owner_slot(o, s, NumOwners)] = leave_idx[o];
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      owner_q <= '0;
    end else begin
      valid_q <= valid_d;
      owner_q <= owner_d;
    end
  end

  // A VC held by an input (a worm's, or a tree worm's from its claim) carries that
  // input's flits only. (A claim takes only a free tree VC by construction: claim_ok_i
  // includes the tree claim's room check.)
  for (genvar o = 0; o < NumOut; o++) begin : gen_owner_checks
    for (genvar s = 0; s < NumOwners; s++) begin : gen_owner
      localparam int unsigned Slot = meshsync_pkg::owner_slot(o, s, NumOwners);
      `ASSERT(VcOwnerLeaves_A,
              !(leave_i[o] && (leave_vc[o] == VcW'(meshsync_pkg::owner_vc(s))) && valid_q[Slot]) ||
              (owner[Slot] == leave_idx[o]),
              ("a flit left on output %0d's VC %0d, held by another input", o, meshsync_pkg::owner_vc(s)))
    end
  end

`ifdef MESHSYNC_FORMAL_VC_OWNERS
  `include "vc_owners.svh"  // the unit proof (tb/formal, scripts/formal)
`endif

  assign free_o = ~valid_q;

  for (genvar o = 0; o < NumOut; o++) begin : gen_tree_free
    assign tree_free_o[o] = !valid_q[meshsync_pkg::owner_slot(o, meshsync_pkg::OwnerTree, NumOwners)];
  end

  for (genvar i = 0; i < NumIn; i++) begin : gen_input_view
    for (genvar p = 0; p < NumPorts; p++) begin : gen_port
      localparam int unsigned O = (p == 0) ? meshsync_pkg::eject_of(i, NiPorts) : p;
      for (genvar s = 0; s < NumOwners; s++) begin : gen_slot
        localparam int unsigned Slot = meshsync_pkg::owner_slot(O, s, NumOwners);
        localparam int unsigned Bit = i*NumPorts*NumOwners + meshsync_pkg::owner_slot(p, s, NumOwners);
        assign in_free_o[Bit] = !valid_q[Slot];
        assign in_mine_o[Bit] = valid_q[Slot] && (owner[Slot] == OwnW'(i));
      end
    end
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_emitter_view
    for (genvar y = 0; y < 2; y++) begin : gen_sync
      localparam int unsigned Slot = meshsync_pkg::owner_slot(p, meshsync_pkg::sync_owner(y != 0), NumOwners);
      assign em_free_o[p*2 + y] = !valid_q[Slot];
      assign em_mine_o[p*2 + y] = valid_q[Slot] && (owner[Slot] == OwnW'(NumIn));
    end
  end

endmodule

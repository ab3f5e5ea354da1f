// The group lookup of the barrier register file, a CAM: which entry holds group `key_i`.
// Every place that matches a GID against the registers goes through it: an arrival's
// lookup (one per input), a tree head's claim, the barrier unit's message, and the
// register file's own find-or-allocate for CS path messages and for software.
// GIDs are unique among valid entries (meshsync_barrier_regfile asserts it), so a hit is
// one-hot, and a field of the hit entry is an AND-OR over the entries, with no priority.
module meshsync_group_cam #(
  /// Entries (barrier registers, >= 1).
  parameter int unsigned NumRegs = 4
) (
  // The entries that take part: valid ones, or valid members, as the caller asks.
  input  logic [NumRegs-1:0]                    valid_i,
  input  logic [NumRegs*meshsync_pkg::GidW-1:0] gid_i,
  input  logic [meshsync_pkg::GidW-1:0]         key_i,
  // One-hot, or zero on a miss.
  output logic [NumRegs-1:0]                    hit_o
);

  localparam int unsigned GidW = meshsync_pkg::GidW;

  // The entries' GIDs, unpacked from the flat port once.
  logic [GidW-1:0] gid [NumRegs];

  for (genvar k = 0; k < NumRegs; k++) begin : gen_entry
    assign gid[k] = gid_i[k*GidW +: GidW];
    assign hit_o[k] = valid_i[k] && (gid[k] == key_i);
  end

endmodule

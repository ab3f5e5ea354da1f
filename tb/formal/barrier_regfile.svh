// Unit proof of meshsync_barrier_regfile (scripts/formal barrier_regfile), included at
// module scope, so it sees the entries. Every input is free: any CS setup or teardown
// passing through, any software request (program or free, any GID, any fields), in any
// cycle and in any combination; the barrier unit's reduction state likewise.
//
// Properties: GIDs are unique among valid entries (the module's UniqueGid_A: a write
// never creates a duplicate, whichever of the CS path and the software port allocates,
// in the same cycle or not), so each of the two lookups hits at most one entry; a member
// or a transit entry is valid; a valid entry that is not a member is held by CS paths
// (its path count is not zero), so a nonmember entry is never left behind.
`include "proof_reset.svh"

`ASSERT(OneCsHit_P, (cs_hit & (cs_hit - 1'b1)) == '0, ("two entries hit GID %0d", cs_gid_i))
`ASSERT(OneSoftwareHit_P, (sw_hit & (sw_hit - 1'b1)) == '0, ("two entries hit GID %0d", reg_i.gid))
`ASSERT(OneProgrammed_P, (program_en & (program_en - 1'b1)) == '0, ("one request programmed two entries"))
`ASSERT(MemberIsValid_P, (member_q & ~valid_q) == '0, ("a member entry is not valid"))
`ASSERT(TransitIsValid_P, (transit_q & ~valid_q) == '0, ("a transit entry is not valid"))
for (genvar k = 0; k < NumRegs; k++) begin : gen_f_entry
  `ASSERT(NonmemberHasPaths_P, !(valid_q[k] && !member_q[k]) || (refs[k] != '0),
          ("entry %0d is valid, no member and crossed by no path", k))
end

`COVER(AllValid_C, &valid_q)
`COVER(ProgramRefusedWhenFull_C, (reg_i.op == meshsync_pkg::RegOpProgram) && fits && !reg_ok_o)
// Software programs the GID of an entry a CS path opened (a nonmember becomes a member).
`COVER(ProgramOverTransit_C, (reg_i.op == meshsync_pkg::RegOpProgram) && |(program_en & valid_q & ~member_q))
// A CS setup and a program of one new GID in the same cycle share one entry.
`COVER(SetupAndProgramTogether_C, cs_valid_i && cs_setup_i && (cs_gid_i == reg_i.gid) &&
       (reg_i.op == meshsync_pkg::RegOpProgram) && !(|cs_hit) && reg_ok_o)
`COVER(FreeLeavesTransit_C, (reg_i.op == meshsync_pkg::RegOpFree) && |(written_o & valid_d & transit_d))

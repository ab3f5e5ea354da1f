// GTKWave's side of a trace: a save file (.gtkw) that opens it with the signals grouped
// by router and port, and the translate filter files that show enumerations (flit kind,
// VC) by name in a VCD, which has no enumerations of its own.
#pragma once

#include <string>
#include <vector>

namespace meshsync {

struct SaveRow {
  enum Format { Binary, Decimal } format = Decimal;
  std::string signal;  // the full name as GTKWave lists it (mesh.r_0_0.east_out.kind[4:0])
  int filter = -1;     // index into the filter files, or none
};

struct SaveGroup {
  std::string name;
  bool closed = false;
  std::vector<SaveRow> rows;
  std::vector<SaveGroup> groups;
};

// A translate filter: one line per named value, "value name", the value in decimal (an
// empty name: the value has none).
void write_filter_file(const std::string& path, const std::vector<std::string>& names);

void write_save_file(const std::string& path, const std::string& dump, const std::vector<std::string>& filters,
                     const std::vector<SaveRow>& top, const std::vector<SaveGroup>& groups);

}  // namespace meshsync

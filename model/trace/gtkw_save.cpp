#include "gtkw_save.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "../core/errors.hpp"
#include "../core/output_files.hpp"

namespace meshsync {

namespace {

// GTKWave's trace flags (its TR_* bits), as a save file writes them in hex after '@'.
constexpr std::uint32_t kDec = 1u << 2, kBin = 1u << 3, kRightJustify = 1u << 5,
                        kBlank = 1u << 9, kFilterFile = 1u << 13, kClosed = 1u << 22,
                        kGroupBegin = 1u << 23, kGroupEnd = 1u << 24;

// Written under the temporary name (output_files); a failed write is reported when the
// run ends.
std::ofstream open(const std::string& path) {
  std::ofstream out(output_files::begin(path));
  if (!out) throw ConfigError("cannot write '" + path + "': " + std::strerror(errno));
  return out;
}


void flags(std::ofstream& out, std::uint32_t f) { out << '@' << std::hex << f << std::dec << '\n'; }

// A translated row names its filter file (numbered from 1) on a `^` line before it.
void rows(std::ofstream& out, const std::vector<SaveRow>& rs, const std::vector<std::string>& filters) {
  for (const SaveRow& r : rs) {
    std::uint32_t f = kRightJustify | (r.format == SaveRow::Binary ? kBin : kDec);
    if (r.filter >= 0) f |= kFilterFile;
    flags(out, f);
    if (r.filter >= 0)
      out << '^' << r.filter + 1 << ' ' << std::filesystem::absolute(filters[static_cast<std::size_t>(r.filter)]).string()
          << '\n';
    out << r.signal << '\n';
  }
}

void group(std::ofstream& out, const SaveGroup& g, const std::vector<std::string>& filters) {
  flags(out, kBlank | kGroupBegin | (g.closed ? kClosed : 0));
  out << '-' << g.name << '\n';
  rows(out, g.rows, filters);
  for (const SaveGroup& sub : g.groups) group(out, sub, filters);
  flags(out, kBlank | kGroupEnd | (g.closed ? kClosed : 0));
  out << '-' << g.name << '\n';
}

}  // namespace

void write_filter_file(const std::string& path, const std::vector<std::string>& names) {
  std::ofstream out = open(path);
  for (std::size_t v = 0; v < names.size(); ++v)
    if (!names[v].empty()) out << v << ' ' << names[v] << '\n';
  output_files::close_checked(out, path);
}

void write_save_file(const std::string& path, const std::string& dump, const std::vector<std::string>& filters,
                     const std::vector<SaveRow>& top, const std::vector<SaveGroup>& groups) {
  namespace fs = std::filesystem;
  std::ofstream out = open(path);
  out << "[*] meshsync: GTKWave save file (docs/waveforms.md)\n";
  out << "[dumpfile] \"" << fs::absolute(dump).string() << "\"\n";
  out << "[savefile] \"" << fs::absolute(path).string() << "\"\n";
  out << "[timestart] 0\n[size] 1400 900\n[pos] -1 -1\n";
  out << "[sst_width] 220\n[signals_width] 320\n[sst_expanded] 1\n[sst_vpaned_height] 240\n";
  rows(out, top, filters);
  for (const SaveGroup& g : groups) group(out, g, filters);
  output_files::close_checked(out, path);
}

}  // namespace meshsync

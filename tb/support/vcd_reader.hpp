// Reads a VCD back for the waveform tests: every variable by its full name (scopes joined
// with '.', no bit range) and its value changes in time order. Enough of the format for
// what meshsync's writers and fst2vcd produce.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace meshsync::test {

class VcdTrace {
 public:
  explicit VcdTrace(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<std::string> scopes;
    std::map<std::string, std::vector<std::string>> names_by_id;
    std::string tok;
    std::uint64_t now = 0;
    while (in >> tok) {
      if (tok == "$scope") {
        std::string kind, name;
        in >> kind >> name;
        scopes.push_back(name);
      } else if (tok == "$upscope") {
        scopes.pop_back();
      } else if (tok == "$var") {
        std::string type, width, id, name;
        in >> type >> width >> id >> name;
        std::string full;
        for (const std::string& s : scopes) full += s + ".";
        names_by_id[id].push_back(full + name);
        changes_[full + name];
      } else if (tok[0] == '$') {
        if (tok == "$enddefinitions" || tok == "$dumpvars" || tok == "$end") continue;
        // $date, $version, $timescale, $comment, $attrbegin ...: skip to $end
        while (in >> tok && tok != "$end") {
        }
      } else if (tok[0] == '#') {
        now = std::stoull(tok.substr(1));
        times_.push_back(now);
      } else if (tok[0] == 'b' || tok[0] == 'B') {
        std::string id;
        in >> id;
        record(names_by_id, id, now, bits(tok.substr(1)));
      } else if (tok[0] == '0' || tok[0] == '1' || tok[0] == 'x' || tok[0] == 'z') {
        record(names_by_id, tok.substr(1), now, tok[0] == '1' ? 1 : 0);
      }
    }
  }
  bool has(const std::string& name) const { return changes_.count(name) != 0; }
  std::size_t variables() const { return changes_.size(); }
  const std::vector<std::uint64_t>& times() const { return times_; }
  // The value at time t (the last change at or before it); 0 before the first.
  std::uint64_t at(const std::string& name, std::uint64_t t) const {
    const auto it = changes_.find(name);
    if (it == changes_.end()) throw std::runtime_error("no variable " + name);
    std::uint64_t v = 0;
    for (const auto& [when, value] : it->second) {
      if (when > t) break;
      v = value;
    }
    return v;
  }
  const std::vector<std::pair<std::uint64_t, std::uint64_t>>& changes(const std::string& name) const {
    return changes_.at(name);
  }
  const std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>>& all() const { return changes_; }

 private:
  static std::uint64_t bits(const std::string& s) {
    std::uint64_t v = 0;
    for (char c : s) v = (v << 1) | (c == '1' ? 1u : 0u);
    return v;
  }
  void record(const std::map<std::string, std::vector<std::string>>& names_by_id, const std::string& id,
              std::uint64_t t, std::uint64_t v) {
    const auto it = names_by_id.find(id);
    if (it == names_by_id.end()) return;
    for (const std::string& n : it->second) {
      auto& c = changes_[n];
      if (!c.empty() && c.back().first == t) c.back().second = v;
      else c.emplace_back(t, v);
    }
  }
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> changes_;
  std::vector<std::uint64_t> times_;
};

}  // namespace meshsync::test

#include "trace_session.hpp"

#include <exception>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "../../model/core/errors.hpp"
#include "../collective/member_spec.hpp"

namespace meshsync {

namespace {

// "FROM:TO", both cycles, FROM <= TO.
void parse_window(const std::string& text, WaveOptions& o) {
  const auto colon = text.find(':');
  const auto number = [&](const std::string& s) -> std::uint64_t {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18)
      throw ConfigError(fmt::format("--trace-window takes FROM:TO in cycles, got '{}'", text));
    return std::stoull(s);
  };
  if (colon == std::string::npos) throw ConfigError(fmt::format("--trace-window takes FROM:TO in cycles, got '{}'", text));
  o.from = number(text.substr(0, colon));
  o.to = number(text.substr(colon + 1));
  if (o.from > o.to)
    throw ConfigError(fmt::format("--trace-window {} is empty: FROM must not be after TO", text));
}

}  // namespace

std::string rtl_trace_path(const std::string& trace) {
  return std::filesystem::path(trace).replace_extension().string() + ".rtl.fst";
}

TraceSession::TraceSession(const NetworkOptions& o) {
  if (o.trace.empty()) {
    if (!o.trace_routers.empty()) throw ConfigError("--trace-routers needs --trace FILE");
    if (!o.trace_window.empty()) throw ConfigError("--trace-window needs --trace FILE");
    return;
  }
  options_.path = o.trace;
  if (!o.trace_routers.empty() && o.trace_routers != "all") {
    try {
      options_.routers = parse_members(o.trace_routers, o.config.mesh, 1);
    } catch (const ConfigError& e) {
      throw ConfigError(std::string("--trace-routers: ") + e.what());
    }
  }
  if (!o.trace_window.empty()) parse_window(o.trace_window, options_);
}

void TraceSession::attach(Machine& m) {
  if (options_.path.empty()) return;
  if (probe_) throw ConfigError("--trace records one simulation, and this command runs several");
  probe_ = std::make_unique<WaveProbe>(m.mesh().core(), options_);
}

// The files take their names when the program ends (output_files): not after bad input,
// but after a simulation that failed, whose waveform is what shows why.
TraceSession::~TraceSession() {
  if (probe_) probe_->close();
}

}  // namespace meshsync

#pragma once
// Names matched across versions and vendors (docs/across-vendors.md "Names matched across versions
// and vendors"): a name on one side only is paired with a name on the other side
// only when both mean the same thing, and the pair becomes one row. The control's
// name keys the row; the test's original name is kept beside it. Internal to analysis/.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/summary.hpp"

namespace tracediff::analysis {

// Why two names were paired: JSON/CSV `matched_by`.
enum class MatchReason : std::uint8_t {
  python_line,    // a Python frame: the same file and function, another line or install prefix
  address,        // the same name but for object addresses (0x7f…)
  runtime,        // CUDA and HIP runtime or driver calls that do the same thing
  demangled,      // a mangled kernel name and its demangled form
  vendor_op,      // operators that do the same work under vendors' names (cudnn/miopen)
  family,         // the only GPU work of its family in the same call paths on each side
};
const char* match_reason_name(MatchReason r);  // "python_line", ...

// What a name is compared by: the name without what differs across versions and
// vendors (line numbers, install prefixes, addresses, runtime prefixes, mangling,
// vendor operator names). Equal keys on both sides pair. Exposed for tests.
// demangle_names: false keeps a mangled name as it is (nothing to pair it with).
std::string match_key(std::string_view name, model::Kind kind, MatchReason* reason = nullptr,
                      bool demangle_names = true);

// The line of a Python frame `path/file.py(LINE): function`, if the name is one.
std::optional<std::int64_t> python_line(std::string_view name);

// C++ demangling through the C++ runtime (abi::__cxa_demangle), within
// util/demangle.hpp's budget; nullopt when `name` is not a mangled name (or over it).
std::optional<std::string> demangle(std::string_view name);

struct Rename {
  std::string category, to;  // the control's key
  MatchReason reason;
};

// (category, test name) -> the control name it pairs with.
class Renames {
 public:
  const Rename* find(std::string_view category, std::string_view name) const;
  // Host names (launchers are names without a category): the first match in any host category.
  const Rename* find_host(std::string_view name) const;
  bool empty() const { return m_by_key.empty(); }
  std::size_t size() const { return m_by_key.size(); }
  void add(std::string category, std::string name, Rename r, bool host);
  static std::string joined(std::string_view category, std::string_view name);

 private:
  std::map<std::string, Rename, std::less<>> m_by_key;  // by joined(category, name)
  std::map<std::string, const Rename*, std::less<>> m_host;
};

// Pairs the names of one side only with the names of the other side only: first by
// match_key (several of one key pair in order: Python frames by line, others by
// name), then GPU work left over by its family and place: when one side's only name of
// a family under a set of call paths meets the other side's only one there.
Renames plan_renames(const model::SetSummary& control, const model::SetSummary& test);

}  // namespace tracediff::analysis

// The ops_diff groups: every name by how its count changed, each group listing its
// first names (in row order) up to the bound analysis decided.
//   groups[] {group, sym, size, has_names, names[] (strings), has_more, more}, groups_basis
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "output/html/sections.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

// A name as a group lists it: its middle elided (kernel names differ there), of at
// most the first 64 KiB of a name (names run to 1 MiB).
std::string group_name(std::string_view name) {
  constexpr std::size_t k_chars = 120;
  return fit(elide(name.substr(0, std::size_t{1} << 16), k_chars), k_label_bytes);
}

}  // namespace

void add_groups(const DiffReport& r, data& ctx) {
  data groups = make_list();
  for (auto ch : k_changes) {
    const auto& names = r.ops_diff.of(ch);
    data g;
    g.set("group", std::string(model::change_name(ch)));
    g.set("sym", std::string(model::change_symbol(ch)));
    g.set("size", format_count(static_cast<std::int64_t>(names.size()), false));
    const std::size_t listed = r.embedded.decided ? std::min(names.size(), r.embedded.group_names) : names.size();
    data list = make_list();
    for (std::size_t k = 0; k < listed; ++k) append(list, data(group_name(names[k])));
    put(g, "names", std::move(list));
    g.set("has_names", !names.empty());
    g.set("has_more", listed < names.size());
    g.set("more", format_count(static_cast<std::int64_t>(names.size() - listed), false));
    append(groups, std::move(g));
  }
  put(ctx, "groups", std::move(groups));
  ctx.set("groups_basis", per_step_mode(r) ? "by count per " + r.unit : std::string("by count, as HTA's ops_diff"));
}

}  // namespace tracediff::output::html

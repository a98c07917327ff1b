// The ops_diff groups: every name by how its count changed.
//   groups[] {group, sym, size, has_names, names[] (strings)}, groups_basis
#include <cstdint>
#include <string>
#include <utility>

#include "output/html/sections.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

void add_groups(const DiffReport& r, data& ctx) {
  data groups = make_list();
  for (auto ch : k_changes) {
    const auto& names = r.ops_diff.of(ch);
    data g;
    g.set("group", std::string(model::change_name(ch)));
    g.set("sym", std::string(model::change_symbol(ch)));
    g.set("size", format_count(static_cast<std::int64_t>(names.size()), false));
    data list = make_list();
    for (const auto& n : names) append(list, data(text(n)));
    put(g, "names", std::move(list));
    g.set("has_names", !names.empty());
    append(groups, std::move(g));
  }
  put(ctx, "groups", std::move(groups));
  ctx.set("groups_basis", per_step_mode(r) ? "by count per " + r.unit : std::string("by count, as HTA's ops_diff"));
}

}  // namespace tracediff::output::html

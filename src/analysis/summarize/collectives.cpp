#include "analysis/summarize/collectives.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include "analysis/names/kernel_families.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis::detail {

namespace {

using model::Kind;

// Text from the trace in a key: bounded, it is stored and matched, never shown.
constexpr std::size_t k_max_key_text = 200;

bool comm_family(Family f) { return f >= Family::comm_all_reduce && f <= Family::comm_other; }

struct Found {
  std::uint32_t step, key;
  std::int64_t seq, ts;
  std::uint32_t index;
  std::int64_t dur;
};

// A tagged host operator (record_param_comms) on its thread: the launches inside it
// are its collective's.
struct HostTag {
  std::uint32_t pid, tid;
  std::int64_t ts, end;
  const model::CommTag* tag;
};

}  // namespace

void summarize_collectives(const model::TraceFile& f, const LaunchIndex& launch_of, const std::int32_t* step_at,
                           model::FileSummary& s) {
  const auto& ev = f.events;
  const auto& tags = f.comm_tags;
  std::vector<HostTag> host;
  for (const auto& t : tags)
    if (t.event < ev.size() && !model::is_gpu_work(ev[t.event].kind)) {
      const auto& e = ev[t.event];
      host.push_back({e.pid, e.tid, e.ts_ns, e.ts_ns + e.dur_ns, &t});
    }
  std::sort(host.begin(), host.end(),
            [](const HostTag& a, const HostTag& b) { return std::tie(a.pid, a.tid, a.ts) < std::tie(b.pid, b.tid, b.ts); });
  const auto own_tag = [&](std::uint32_t i) -> const model::CommTag* {
    const auto it = std::lower_bound(tags.begin(), tags.end(), i, [](const model::CommTag& t, std::uint32_t x) { return t.event < x; });
    return it != tags.end() && it->event == i ? &*it : nullptr;
  };
  // The tagged operator around a launch on its thread: the last to start before it, if
  // it is still open (they do not nest; one look, so that hostile traces stay linear).
  const auto around = [&](const model::Event& l) -> const model::CommTag* {
    auto it = std::upper_bound(host.begin(), host.end(), std::tie(l.pid, l.tid, l.ts_ns),
                               [](const auto& key, const HostTag& h) { return key < std::tie(h.pid, h.tid, h.ts); });
    if (it == host.begin()) return nullptr;
    --it;
    return it->pid == l.pid && it->tid == l.tid && it->end >= l.ts_ns ? it->tag : nullptr;
  };

  std::vector<std::uint8_t> family;  // per name id: 0 not yet classified, 1 no collective, 2 + Family
  std::map<std::pair<std::string, bool>, std::uint32_t> key_ids;
  std::vector<Found> found;
  std::string key;
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    if (e.kind != Kind::kernel || step_at[i] < 0) continue;
    if (family.empty()) family.assign(f.pool.size(), 0);
    auto& fam = family[e.name];
    if (fam == 0) {
      const Family c = classify(f.pool.get(e.name), e.kind);
      fam = comm_family(c) ? static_cast<std::uint8_t>(2 + static_cast<int>(c)) : 1;
    }
    if (fam == 1) continue;
    const model::CommTag* tag = own_tag(i);
    if (!tag && !host.empty() && e.correlation >= 0)
      if (const auto l = launch_of.find(e.correlation); l >= 0) tag = around(ev[static_cast<std::size_t>(l)]);
    key = family_name(static_cast<Family>(fam - 2));
    if (tag) key.append(" pg ").append(tag->group == ~0u ? std::string_view() : f.pool.get(tag->group).substr(0, k_max_key_text));
    else key.append(" stream ").append(f.pool.get(e.tid).substr(0, k_max_key_text));
    const auto [it, fresh] = key_ids.try_emplace({key, tag != nullptr}, static_cast<std::uint32_t>(s.collective_keys.size()));
    if (fresh) s.collective_keys.push_back({key, tag != nullptr});
    found.push_back({static_cast<std::uint32_t>(step_at[i]), it->second, tag ? tag->seq : -1, e.ts_ns, i, e.dur_ns});
  }
  if (found.empty()) return;
  // GPU order within each step: a stream runs its collectives in order.
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return std::tie(a.step, a.ts, a.index) < std::tie(b.step, b.ts, b.index); });
  std::unordered_map<std::uint64_t, std::int64_t> order;     // (key) -> calls so far in the step
  std::map<std::pair<std::uint32_t, std::int64_t>, std::size_t> by_seq;  // (key, seq) -> call in the step
  std::size_t in_step = 0;
  bool capped = false;
  for (std::size_t j = 0; j < found.size(); ++j) {
    const auto& c = found[j];
    if (j == 0 || c.step != found[j - 1].step) order.clear(), by_seq.clear(), in_step = 0;
    if (s.collective_keys[c.key].by_seq) {
      // A collective of several kernels: one call, their time summed.
      if (const auto it = by_seq.find({c.key, c.seq}); it != by_seq.end()) {
        add_sat(s.collectives[it->second].dur_ns, c.dur);
        continue;
      }
    }
    if (in_step == model::k_collectives_per_step) {
      capped = true;
      continue;
    }
    ++in_step;
    const std::int64_t seq = s.collective_keys[c.key].by_seq ? c.seq : order[c.key]++;
    if (s.collective_keys[c.key].by_seq) by_seq[{c.key, c.seq}] = s.collectives.size();
    s.collectives.push_back({c.step, c.key, seq, c.dur});
  }
  if (capped)
    s.diagnostics.report(model::DiagId::collectives_capped, f.path, 0,
                         "more than " + std::to_string(model::k_collectives_per_step) +
                             " collectives in a step: the later ones are not matched across ranks");
}

void match_collectives(const model::SetSummary& set, const std::vector<std::pair<std::size_t, std::uint32_t>>& units,
                       model::SideSummary& side) {
  auto& m = side.collectives;
  m = {};
  m.wait_ns.assign(units.size(), 0);
  std::set<int> ranks;
  for (const auto& u : units) ranks.insert(set.files[u.first].rank);
  if (ranks.size() < 2) return;

  // One id per (key, by_seq) over the side's files.
  std::map<std::pair<std::string_view, bool>, std::uint32_t> ids;
  std::vector<bool> id_by_seq;
  std::map<std::size_t, std::vector<std::uint32_t>> file_ids;  // file -> its keys' ids
  struct Arrival {
    std::uint32_t unit;
    int rank;
    std::int64_t dur;
  };
  // (run, key id, step number (order keys) or 0, seq) -> its kernels on each rank, in unit
  // order: ranks meet within their run only.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::int64_t, std::int64_t>, std::vector<Arrival>> calls;
  for (std::uint32_t u = 0; u < units.size(); ++u) {
    const auto& f = set.files[units[u].first];
    auto [fi, fresh] = file_ids.try_emplace(units[u].first);
    if (fresh)
      for (const auto& k : f.collective_keys) {
        const auto [it, added] = ids.try_emplace({k.name, k.by_seq}, static_cast<std::uint32_t>(ids.size()));
        if (added) id_by_seq.push_back(k.by_seq);
        fi->second.push_back(it->second);
      }
    const auto step = units[u].second;
    const auto [first, last] = std::equal_range(f.collectives.begin(), f.collectives.end(), step, [](const auto& a, const auto& b) {
      if constexpr (std::is_same_v<std::decay_t<decltype(a)>, model::CollectiveCall>) return a.step < b;
      else return a < b.step;
    });
    for (auto c = first; c != last; ++c) {
      const auto id = fi->second[c->key];
      calls[{f.run, id, id_by_seq[id] ? 0 : f.steps[step].step, c->seq}].push_back({u, f.rank, c->dur_ns});
    }
  }

  std::map<int, model::LastArrivals> per_rank;
  for (const auto& [call, arrivals] : calls) {
    // Arrivals are in (rank, step) order: ranks are runs.
    std::size_t distinct = 0;
    for (std::size_t j = 0; j < arrivals.size(); ++j) distinct += j == 0 || arrivals[j].rank != arrivals[j - 1].rank;
    if (distinct < 2) continue;
    ++m.matched;
    m.by_seq += id_by_seq[std::get<1>(call)];
    const auto [lo, hi] = std::minmax_element(arrivals.begin(), arrivals.end(),
                                              [](const Arrival& a, const Arrival& b) { return a.dur < b.dur; });
    for (std::size_t j = 0; j < arrivals.size(); ++j) {
      add_sat(m.wait_ns[arrivals[j].unit], arrivals[j].dur - lo->dur);
      if (j == 0 || arrivals[j].rank != arrivals[j - 1].rank) ++per_rank[arrivals[j].rank].of;
    }
    // Kernels of one collective differ by a few % across ranks when nobody is late:
    // a last arrival counts when the others waited more than a tenth of its own time.
    if (hi->dur - lo->dur > lo->dur / 10) ++per_rank[lo->rank].count;
  }
  for (const int r : ranks) {
    auto last = per_rank[r];
    if (last.of) last.share = static_cast<double>(last.count) / static_cast<double>(last.of);
    m.ranks.push_back({r, last});
  }
}

}  // namespace tracediff::analysis::detail

// libFuzzer target: a *.tdsum.json summary through the reader, the summary writer
// (round trip), compare_summaries against itself and every writer.
//
// Byte mutations of a summary mostly break its JSON, and rarely turn a small figure
// into one at the edge of a range (2^61, INT64_MAX ...): the custom mutator below
// does that half the time, on the parsed document, and leaves the rest to libFuzzer.
#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "support/fuzz_entry.hpp"

namespace json = boost::json;

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

void collect(json::value& v, std::vector<json::value*>& out) {
  out.push_back(&v);
  if (auto* a = v.if_array())
    for (auto& x : *a) collect(x, out);
  else if (auto* o = v.if_object())
    for (auto& [k, x] : *o) collect(x, out);
}

json::value interesting(std::minstd_rand& rng, const json::value& old) {
  static const std::int64_t ints[] = {0, 1, -1, 2, 1000, (1 << 30) - 1, 1 << 30, INT32_MAX, std::int64_t{1} << 31,
                                      std::int64_t{1} << 32, std::int64_t{1} << 53, std::int64_t{1} << 59,
                                      std::int64_t{1} << 60, (std::int64_t{1} << 61) - 1,
                                      std::int64_t{1} << 61, std::int64_t{1} << 62, INT64_MAX, INT64_MIN,
                                      999'999'999'999'999'999, 1'000'000'000'000'000'000};
  switch (rng() % 8) {
    case 0:
    case 1:
    case 2: return ints[rng() % std::size(ints)];
    case 3:  // nudge a number
      if (old.is_int64()) {
        const auto v = old.get_int64();
        const int how = static_cast<int>(rng() % 3);
        std::int64_t r = v;
        if (how == 0 && __builtin_add_overflow(v, 1, &r)) r = v;
        if (how == 1 && v != INT64_MIN) r = -v;
        if (how == 2 && __builtin_mul_overflow(v, 3, &r)) r = v;
        return r;
      }
      return UINT64_MAX;
    case 4: {
      static const double doubles[] = {1.5, -0.0, 1e300, 1e18, 9.3e18};
      return doubles[rng() % std::size(doubles)];
    }
    case 5: {
      static constexpr std::string_view strings[] = {"", "x", "cpu_op", "kernel", "fallback", "file_name",
                                                     std::string_view("\0a", 2)};
      return json::string(strings[rng() % std::size(strings)]);
    }
    case 6: return rng() % 2 ? json::value(nullptr) : json::value(rng() % 2 == 0);
    default: return rng() % 2 ? json::value(json::array()) : json::value(json::object());
  }
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  std::minstd_rand rng(seed);
  if (rng() % 2) return LLVMFuzzerMutate(data, size, max_size);
  json::error_code ec;
  auto doc = json::parse(std::string_view(reinterpret_cast<const char*>(data), size), ec);
  if (ec) return LLVMFuzzerMutate(data, size, max_size);
  std::vector<json::value*> nodes;
  collect(doc, nodes);
  // A few changes at once, so that two large figures can meet in one sum.
  for (int n = 1 + static_cast<int>(rng() % 3); n > 0; --n) {
    json::value& v = *nodes[rng() % nodes.size()];
    switch (rng() % 5) {
      case 0:
      case 1:
        if (!v.is_array() && !v.is_object()) v = interesting(rng, v);
        break;
      case 2:  // an array one element longer or shorter
        if (auto* a = v.if_array(); a && !a->empty()) {
          const auto i = rng() % a->size();
          if (rng() % 2) a->insert(a->begin() + static_cast<std::ptrdiff_t>(i), (*a)[i]);
          else a->erase(a->begin() + static_cast<std::ptrdiff_t>(i));
          n = 0;  // `nodes` may point into what moved
        }
        break;
      case 3:  // a member gone
        if (auto* o = v.if_object(); o && !o->empty()) {
          o->erase(std::next(o->begin(), static_cast<std::ptrdiff_t>(rng() % o->size())));
          n = 0;
        }
        break;
      default:  // another scalar's value copied here
        if (const auto& w = *nodes[rng() % nodes.size()]; !v.is_structured() && !w.is_structured()) v = w;
        break;
    }
  }
  const auto text = json::serialize(doc);
  if (text.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tracediff::fuzz::fuzz_summary({reinterpret_cast<const char*>(data), size});
  return 0;
}

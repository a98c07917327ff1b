#include "util/format.hpp"

#include <cmath>
#include <cstdio>

namespace tracediff {

namespace {

using u128 = unsigned __int128;

// |n| without overflow for INT64_MIN.
std::uint64_t magnitude(std::int64_t n) {
  return n < 0 ? ~static_cast<std::uint64_t>(n) + 1 : static_cast<std::uint64_t>(n);
}

std::string group_thousands(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  const std::size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i >= lead && (i - lead) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string sign_prefix(bool negative, bool positive, bool with_sign) {
  if (negative) return "-";
  if (positive && with_sign) return "+";
  return {};
}

std::uint64_t pow10(int d) {
  std::uint64_t p = 1;
  while (d-- > 0) p *= 10;
  return p;
}

int digit_count(std::uint64_t v) {
  int k = 1;
  while (v >= 10) {
    v /= 10;
    ++k;
  }
  return k;
}

// a / unit rounded half-up to 3 significant digits, as "int.frac". Returns false
// when the rounded value reaches 1000 (the caller then tries the next unit).
bool scaled_3sig(std::uint64_t a, std::uint64_t unit, bool last_unit, std::string& out) {
  const std::uint64_t whole = a / unit;
  int d = 3 - digit_count(whole);
  if (d < 0) d = 0;
  for (;;) {
    const u128 scaled = (static_cast<u128>(a) * pow10(d) + unit / 2) / unit;
    const u128 limit = static_cast<u128>(pow10(3));  // 3 significant digits
    if (d > 0 && scaled >= limit) {
      --d;  // 9.996 -> 10.0
      continue;
    }
    if (d == 0 && scaled >= 1000 && !last_unit) return false;
    const std::uint64_t s = static_cast<std::uint64_t>(scaled);
    const std::uint64_t p = pow10(d);
    out = group_thousands(s / p);
    if (d > 0) {
      std::string frac = std::to_string(s % p);
      out += '.';
      out.append(static_cast<std::size_t>(d) - frac.size(), '0');
      out += frac;
    }
    return true;
  }
}

}  // namespace

std::string format_duration_ns(std::int64_t ns, bool with_sign) {
  const std::uint64_t a = magnitude(ns);
  std::string out = sign_prefix(ns < 0, ns > 0, with_sign);
  if (a < 1000) return out + std::to_string(a) + " ns";
  struct Unit {
    std::uint64_t ns;
    const char* name;
  };
  static constexpr Unit units[] = {{1'000, " \xC2\xB5s"}, {1'000'000, " ms"}, {1'000'000'000, " s"}};
  std::size_t u = a < 1'000'000 ? 0 : a < 1'000'000'000 ? 1 : 2;
  std::string num;
  while (!scaled_3sig(a, units[u].ns, u == 2, num)) ++u;
  return out + num + units[u].name;
}

std::string format_count(std::int64_t n, bool with_sign) {
  std::string out = sign_prefix(n < 0, n > 0, with_sign);
  out += group_thousands(magnitude(n));
  return out;
}

std::string format_count_per_step(double n, bool with_sign) {
  if (!std::isfinite(n)) return "n/a";
  const double hundredths_d = std::round(std::fabs(n) * 100.0);
  if (hundredths_d >= 1e17) return n > 0 ? "+huge" : "-huge";
  const auto hundredths = static_cast<std::uint64_t>(hundredths_d);
  if (hundredths == 0) {
    if (n == 0) return "0";
    return std::string(n < 0 ? "-" : (with_sign ? "+" : "")) + "<0.01";
  }
  std::string out = sign_prefix(n < 0, n > 0, with_sign);
  // A thousand calls a step or more: the fraction says nothing ("10,909", not "10,909.17").
  if (hundredths >= 100'000) return out + group_thousands((hundredths + 50) / 100);
  out += group_thousands(hundredths / 100);
  if (const auto frac = hundredths % 100; frac != 0) {
    out += '.';
    out += static_cast<char>('0' + frac / 10);
    if (frac % 10 != 0) out += static_cast<char>('0' + frac % 10);
  }
  return out;
}

std::string format_pct(std::optional<double> pct, bool is_new) {
  if (!pct) return is_new ? "new" : "n/a";
  if (!std::isfinite(*pct)) return "n/a";
  // Ten times or more reads better as a factor: "×33.9", not "+3,286.7%".
  if (*pct >= 900.0) {
    const double factor = 1.0 + *pct / 100.0;
    if (factor >= 1e15) return "\xC3\x97huge";
    if (factor < 99.95) {
      const auto tenths = static_cast<std::uint64_t>(std::round(factor * 10.0));
      return "\xC3\x97" + std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
    }
    return "\xC3\x97" + group_thousands(static_cast<std::uint64_t>(std::round(factor)));
  }
  // Round to one decimal, half away from zero, in integer tenths.
  const double tenths_d = std::round(std::fabs(*pct) * 10.0);
  if (tenths_d >= 1e17) return *pct > 0 ? "+huge%" : "-huge%";
  const auto tenths = static_cast<std::uint64_t>(tenths_d);
  std::string out = tenths == 0 ? "" : (*pct < 0 ? "-" : "+");
  out += group_thousands(tenths / 10);
  out += '.';
  out += static_cast<char>('0' + tenths % 10);
  out += '%';
  return out;
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  static constexpr const char* names[] = {" kB", " MB", " GB", " TB", " PB", " EB"};
  std::uint64_t unit = 1000;
  std::string num;
  for (std::size_t u = 0; u < 6; ++u, unit *= 1000) {
    if (u < 5 && bytes / unit >= 1000) continue;
    if (scaled_3sig(bytes, unit, u == 5, num)) return num + names[u];
  }
  return std::to_string(bytes) + " B";  // not reached
}

std::string format_size(double bytes, bool with_sign) {
  if (!std::isfinite(bytes)) return "?";
  const double rounded = std::round(bytes);
  const bool negative = rounded < 0;
  const double mag = std::min(std::fabs(rounded), 1.8e19);
  return sign_prefix(negative, mag != 0, with_sign) + format_bytes(static_cast<std::uint64_t>(mag));
}

std::string format_flops(double v) {
  if (!std::isfinite(v) || v < 0) return "?";
  static constexpr const char* names[] = {" FLOP", " kFLOP", " MFLOP", " GFLOP", " TFLOP", " PFLOP"};
  char buf[64];
  for (int u = 0; u < 6; ++u, v /= 1000) {
    if (v >= 999.5 && u < 5) continue;
    if (v >= 999.5) break;
    if (u == 0) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f", v);
    return buf + std::string(names[u]);
  }
  std::snprintf(buf, sizeof buf, "%.2e FLOP", v * 1e15);
  return buf;
}

std::string format_rate(double v) {
  if (!std::isfinite(v) || v <= 0) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : v >= 0.9995 ? "%.2f" : "%.3f", v);
  return buf;
}

std::int64_t to_ns(double v) {
  if (!(v == v)) return 0;
  if (v >= 9.2e18) return INT64_MAX;
  if (v <= -9.2e18) return INT64_MIN;
  return static_cast<std::int64_t>(v < 0 ? v - 0.5 : v + 0.5);
}

std::optional<double> relative_pct(double control, double test) {
  if (control == 0) return std::nullopt;
  return 100.0 * (test - control) / control;
}

}  // namespace tracediff

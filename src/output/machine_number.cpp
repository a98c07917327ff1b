#include "output/machine_number.hpp"

#include <cmath>
#include <cstdio>

namespace tracediff::output {

std::string us_decimal(std::int64_t ns) {
  const bool neg = ns < 0;
  const std::uint64_t a = neg ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  std::string s = (neg ? "-" : "") + std::to_string(a / 1000);
  const auto frac = a % 1000;
  if (frac) {
    char buf[8];
    std::snprintf(buf, sizeof buf, ".%03u", static_cast<unsigned>(frac));
    std::string f(buf);
    while (f.back() == '0') f.pop_back();
    s += f;
  }
  return s;
}

std::string us_decimal(double ns) { return us_decimal(static_cast<std::int64_t>(std::llround(ns))); }

std::string decimal(double v, int digits) {
  if (!std::isfinite(v)) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  std::string s(buf);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

std::string flops_decimal(double v) {
  if (!std::isfinite(v) || v < 0) return "0";
  if (v < 1e18) return decimal(v, 0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6e", v);
  return buf;
}

std::string pct_decimal(std::optional<double> pct, const std::string& missing) {
  if (!pct || !std::isfinite(*pct)) return missing;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", *pct);
  std::string s(buf);
  if (s == "-0.00") s = "0.00";
  return s;
}

}  // namespace tracediff::output

#pragma once
// Numbers for machine-readable outputs (CSV, JSON): exact, unscaled, locale-free.
#include <cstdint>
#include <optional>
#include <string>

namespace tracediff::output {

// Nanoseconds as exact decimal microseconds: 1500 -> "1.5", -2000 -> "-2", 7 -> "0.007".
std::string us_decimal(std::int64_t ns);

// Fractional nanoseconds (means) as microseconds with at most 3 decimals.
std::string us_decimal(double ns);

// A plain decimal with at most `digits` decimals, trailing zeros dropped.
std::string decimal(double v, int digits);

// A count of operations (--by-shape's FLOPs): an integer below 10^18, else "1.234568e+21".
std::string flops_decimal(double v);

// A percentage with 2 decimals ("12.34"), or `missing` when there is none.
std::string pct_decimal(std::optional<double> pct, const std::string& missing);

}  // namespace tracediff::output

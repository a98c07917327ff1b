#pragma once
// Human formatting shared by the human writers (HTML, terminal, Markdown). Machine
// writers (JSON, CSV) print raw integers instead. Locale-independent and
// deterministic: ASCII digits, ',' thousands separators, '.' decimal point, ASCII
// '-' for negatives.
//
//   format_duration_ns(812, false)       -> "812 ns"
//   format_duration_ns(1234, false)      -> "1.23 µs"
//   format_duration_ns(1'250'000, true)  -> "+1.25 ms"
//   format_duration_ns(-65'432'100, true)-> "-65.4 ms"
//   format_count(1234567, true)          -> "+1,234,567"
//   format_pct(12.34)                    -> "+12.3%"
//   format_pct(std::nullopt)             -> "n/a"   (format_pct(nullopt, true) -> "new")
#include <cstdint>
#include <optional>
#include <string>

namespace tracediff {

// A duration with a unit chosen so the number is in [1, 1000): ns (integer), µs,
// ms or s, rounded half away from zero to 3 significant digits (seconds keep every
// integer digit: "1,234 s"). with_sign puts '+' before positive values; negative
// values always have '-'; zero is "0 ns" either way.
std::string format_duration_ns(std::int64_t ns, bool with_sign);

// An integer with ',' every three digits. with_sign as for durations.
std::string format_count(std::int64_t n, bool with_sign);

// A count per step (a mean, so fractional): at most two decimals, trailing zeros
// dropped, ',' thousands separators ("4", "0.5", "2.33"); none from 1,000 ("1,235"). A positive value
// that rounds to 0 is "<0.01". with_sign as for durations.
//   format_count_per_step(2.3333, false) -> "2.33"    format_count_per_step(3, true) -> "+3"
std::string format_count_per_step(double n, bool with_sign);

// A relative change in percent, always signed, one decimal ("+12.3%", "-0.4%",
// "0.0%"); ten times the base or more as a factor ("×33.9", "×1,315"). nullopt (no
// base to compare with) gives "n/a", or "new" when is_new.
std::string format_pct(std::optional<double> pct, bool is_new = false);

// A byte size in decimal units: "512 B", "34.2 MB" (3 significant digits).
std::string format_bytes(std::uint64_t bytes);
// A size that may be a mean or a difference (memory figures): "1.23 GB", "+512 MB",
// "−4.00 kB" with with_sign; rounded to whole bytes.
std::string format_size(double bytes, bool with_sign);

// --by-shape: floating-point operations with a decimal prefix, 3 significant digits:
// "812 FLOP", "2.15 GFLOP", "1.07 TFLOP"; past 1000 PFLOP, "1.23e+21 FLOP".
std::string format_flops(double flops);
// A rate (TFLOP/s) with 3 significant digits, no unit: "312", "45.2", "0.871", "0".
std::string format_rate(double v);

// A double number of nanoseconds (a per-step mean), rounded and clamped to int64.
std::int64_t to_ns(double ns);

// 100 × (test − control) / control; nullopt when control is 0.
std::optional<double> relative_pct(double control, double test);

}  // namespace tracediff

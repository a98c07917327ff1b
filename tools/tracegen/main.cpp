// tracegen: writes deterministic, Kineto-shaped PyTorch profiler traces (one
// file per rank) for tests, examples and benchmarks. This driver parses the
// options (options.cpp) and writes the ranks' files; the shapes of the trace are
// in one file per family (see CMakeLists.txt and sim.hpp).
//
// Every random draw is a hash of (seed, rank, step, position in the step
// template) rather than a shared stream, so --slowdown/--add-kernel/
// --drop-kernel/--extra-launches change only what they name: all other
// durations stay identical (to the ns) between a control and a test run.
// The options that reproduce real-trace pathologies keep to this: events they
// add draw from slots of their own, and --warmup-steps stretches or shifts the
// output of an unchanged simulation, so their defaults write what tracegen
// always wrote, byte for byte.

#include "sim.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace tracegen {
namespace {

std::string file_name(const Options& o, int rank) {
  return o.prefix + std::to_string(rank) + ".pt.trace.json" + (o.gzip ? ".gz" : "");
}

uint64_t measure(const Options& o, const Catalog& c) {
  JsonOut counter;
  Sim(o, c, 0, file_name(o, 0)).write(counter);
  return counter.bytes();
}

// Bytes grow linearly in steps and in layers, so two small probes give the slope.
void fit_target(Options& o, const Catalog& c) {
  const auto target = static_cast<uint64_t>(o.target_bytes);
  Options p = o;
  const bool fit_layers = o.steps_set;
  if (!fit_layers && !o.layers_set) {
    o.layers = 32;
  }
  int& knob = fit_layers ? p.layers : p.steps;
  p.layers = o.layers;
  knob = 2;
  const uint64_t b2 = measure(p, c);
  knob = 4;
  const uint64_t b4 = measure(p, c);
  const uint64_t per = std::max<uint64_t>((b4 - b2) / 2, 1);
  const uint64_t fixed = b2 > 2 * per ? b2 - 2 * per : 0;
  const auto n = static_cast<int>(std::clamp<uint64_t>((target > fixed ? target - fixed + per / 2 : 0) / per, 1,
                                                       fit_layers ? 1000000 : 10000000));
  (fit_layers ? o.layers : o.steps) = n;
}

// --run-offset's draw for the whole run: +- run_offset_ppm, from the seed alone.
void draw_run_offset(Options& o) {
  if (o.run_offset_ppm <= 0) return;
  const auto span = static_cast<uint64_t>(2 * o.run_offset_ppm + 1);
  o.run_factor_ppm = k_ppm + static_cast<int64_t>(mix64(o.seed ^ 0x72756e6f6666ULL) % span) - o.run_offset_ppm;
}

int run_one(Options& o);

// --series N: run r (1-based) in DIR/run-NNN with seed mix(seed, r), the shift from
// --shift-at on; DIR/runs.tsv lists them with a made-up commit hash each.
int run_series(const Options& o) {
  std::filesystem::create_directories(o.out_dir);
  const int width = std::max(3, static_cast<int>(std::to_string(o.series).size()));
  std::string tsv;
  for (int r = 1; r <= o.series; ++r) {
    Options p = o;
    p.series = 0;
    p.seed = mix64(o.seed * 1000003ULL + static_cast<uint64_t>(r));
    std::string name = std::to_string(r);
    name = "run-" + std::string(static_cast<size_t>(width) - std::min<size_t>(name.size(), width), '0') + name;
    p.out_dir = (std::filesystem::path(o.out_dir) / name).string();
    if (o.shift_at > 0 && r >= o.shift_at && o.shift_ppm != 0)
      p.slowdowns.push_back({o.shift_name, k_ppm + o.shift_ppm});
    char hash[16];
    std::snprintf(hash, sizeof hash, "%07llx", static_cast<unsigned long long>(mix64(p.seed) & 0xfffffffULL));
    for (const auto& k : o.renamed_kernels) p.add_kernels.push_back(k + "_" + hash);
    if (const int rc = run_one(p); rc != 0) return rc;
    tsv += name + "\t" + hash + "\n";
  }
  JsonOut list((std::filesystem::path(o.out_dir) / "runs.tsv").string(), false);
  list.put(tsv);
  list.finish();
  return 0;
}

int run(Options& o) {
  if (o.series > 0) return run_series(o);
  if (!o.renamed_kernels.empty()) throw UsageError{"--renamed-kernel needs --series"};
  if (o.shift_at > 0 || o.shift_ppm != 0 || !o.shift_name.empty())
    throw UsageError{"--shift-at, --shift and --shift-name need --series"};
  return run_one(o);
}

int run_one(Options& o) {
  draw_run_offset(o);
  const Catalog catalog(o);
  if (o.target_bytes > 0) {
    fit_target(o, catalog);
  }
  std::filesystem::create_directories(o.out_dir);
  std::vector<std::string> errors(static_cast<size_t>(o.ranks));
  const auto work = [&](int rank) {
    try {
      const std::string name = file_name(o, rank);
      JsonOut out((std::filesystem::path(o.out_dir) / name).string(), o.gzip);
      Sim sim(o, catalog, rank, name);
      if (o.bound.empty()) sim.write(out);
      else sim.write_bound(out);
      out.finish();
    } catch (const std::exception& e) {
      errors[static_cast<size_t>(rank)] = e.what();
    }
  };
  // Files are independent: one thread per rank, at most one per core.
  const int par = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  for (int first = 0; first < o.ranks; first += par) {
    std::vector<std::thread> pool;
    for (int r = first; r < std::min(o.ranks, first + par); ++r) {
      pool.emplace_back(work, r);
    }
    for (auto& t : pool) {
      t.join();
    }
  }
  int rc = 0;
  for (const auto& e : errors) {
    if (!e.empty()) {
      std::fprintf(stderr, "tracegen: error: %s\n", e.c_str());
      rc = 1;
    }
  }
  if (rc == 0 && !o.bound.empty()) {
    std::fprintf(stderr, "tracegen: wrote %d file(s) to %s (--bound %s, %d steps)\n", o.ranks, o.out_dir.c_str(),
                 o.bound.c_str(), o.steps);
  } else if (rc == 0) {
    std::fprintf(stderr, "tracegen: wrote %d file(s) to %s (%d layers, %d steps)\n", o.ranks, o.out_dir.c_str(),
                 o.layers, o.steps);
  }
  return rc;
}

}  // namespace
}  // namespace tracegen

int main(int argc, char** argv) {
  try {
    tracegen::Options o = tracegen::parse_options(argc, argv);
    return tracegen::run(o);
  } catch (const tracegen::UsageError& e) {
    if (e.message.empty()) {
      std::fwrite(tracegen::k_usage.data(), 1, tracegen::k_usage.size(), stdout);
      return 0;
    }
    std::fprintf(stderr, "tracegen: %s (see --help)\n", e.message.c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tracegen: error: %s\n", e.what());
    return 1;
  }
}

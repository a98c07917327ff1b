#pragma once
#include <time.h>
#include <chrono>
#include <cstdio>
inline double thread_ms() { timespec ts; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#include <fstream>
#include <string>
inline std::string rss() { std::ifstream f("/proc/self/status"); std::string l, out; while (std::getline(f, l)) if (l.rfind("VmRSS", 0) == 0 || l.rfind("VmHWM", 0) == 0) out += l.substr(6) + " "; return out; }
inline void dump_maps(const char* tag) {
  std::ifstream f("/proc/self/smaps"); std::string l, head; 
  while (std::getline(f, l)) {
    if (l.find('-') < 16 && l.find(' ') > l.find('-')) head = l;
    else if (l.rfind("Rss:", 0) == 0) { long kb = std::stol(l.substr(4)); if (kb >= 200) std::fprintf(stderr, "MAP %s %6ld kB  %s\n", tag, kb, head.c_str()); }
  }
}
inline void probe(const char* what) {
  static const auto t0 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "PROBE %8.2f %8.2f %s\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), thread_ms(), (std::string(what) + "  " + rss()).c_str());
}

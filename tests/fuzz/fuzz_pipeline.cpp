// libFuzzer target: two traces through compare_traces and every writer.
#include <cstddef>
#include <cstdint>

#include "support/fuzz_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tracediff::fuzz::fuzz_pipeline({reinterpret_cast<const char*>(data), size});
  return 0;
}

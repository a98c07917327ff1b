// libFuzzer target: the trace reader alone (ByteSource over memory + read_trace).
#include <cstddef>
#include <cstdint>

#include "support/fuzz_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tracediff::fuzz::fuzz_reader({reinterpret_cast<const char*>(data), size});
  return 0;
}

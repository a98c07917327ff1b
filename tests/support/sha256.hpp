#pragma once
// SHA-256 for the tests: they check the script hashes computed at build time.
#include <string>
#include <string_view>

namespace tracediff::test {

// SHA-256 of the bytes, base64-encoded (the form a CSP hash source takes).
std::string sha256_base64(std::string_view bytes);

}  // namespace tracediff::test

#pragma once
// Templates and assets compiled into the binary (cmake/EmbedFiles.cmake).
#include <string_view>

namespace tracediff {
// The bytes of an embedded file by base name ("report.css"); empty if unknown.
std::string_view embedded_file(std::string_view name);
// Its SHA-256, base64-encoded, computed at build time (a CSP hash source needs it
// and the files are constants); empty if unknown.
std::string_view embedded_sha256_base64(std::string_view name);
}  // namespace tracediff

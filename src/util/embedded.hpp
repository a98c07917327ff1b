#pragma once
// Templates and assets compiled into the binary (cmake/EmbedFiles.cmake).
#include <string_view>

namespace tracediff {
// The bytes of an embedded file by base name ("report.css"); empty if unknown.
std::string_view embedded_file(std::string_view name);
}  // namespace tracediff

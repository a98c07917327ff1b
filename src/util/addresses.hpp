#pragma once
// Object addresses in Python frames' names ("<built-in method relu of type object at
// 0x7ce2864e5ac0>"): they differ from process to process (every rank, every run), so the
// same frame would be a row per process. Kept out of names as they are read.
#include <string>
#include <string_view>

namespace tracediff {

// " at 0x<hex>" removed wherever it stands before '>' (CPython's repr of an object); other
// text as it is. Returns `name` itself when there is none, else a view of `scratch`.
std::string_view without_object_addresses(std::string_view name, std::string& scratch);

}  // namespace tracediff

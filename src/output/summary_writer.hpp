#pragma once
// `tracediff summarize`: a set's per-step summary as JSON (*.tdsum.json), a small
// fraction of the traces' size. reading/summary_reader.cpp reads it back.
//
// {"format": "tracediff-summary", "schema_version": 6, "label": ..., "inputs": [...],
//  "diagnostics": {...}, "strings": [...], "files": [{"path", "rank", ..., "unit",
//  "keys": [string indices], "steps": [...], "step_figures": [...], "cells": {columns},
//  "launches": {columns}, "tree": [...], "tree_cells": {columns}}]}
// (docs/summaries.md "The format").
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "model/summary.hpp"

namespace tracediff::output {

void write_summary(const model::SetSummary& summary, std::ostream& out);

// Every string a file's summary names, in the order the writer meets them (its table
// lists the strings of a set's files in this order, first occurrence first).
void summary_strings(const model::FileSummary& f, const std::function<void(const std::string&)>& add);

class JsonEmit;

// The same one file at a time (`tracediff merge`: a part in memory, not all of them):
// `strings` must hold every string the files will name (summary_strings), in the
// order the table is to list them. write_summary(s) is this with s's own.
class SummaryWriter {
 public:
  SummaryWriter(std::ostream& out, const std::string& label, const std::vector<std::string>& inputs,
                const model::Diagnostics& diagnostics, const std::vector<std::string>& strings);
  ~SummaryWriter();
  void file(const model::FileSummary& f);
  void finish();

 private:
  class Strings;
  std::ostream& m_out;
  std::unique_ptr<JsonEmit> m_json;
  std::unique_ptr<Strings> m_strings;
};

}  // namespace tracediff::output

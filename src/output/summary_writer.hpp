#pragma once
// `tracediff summarize`: a set's per-step summary as JSON (*.tdsum.json), a small
// fraction of the traces' size. reading/summary_reader.cpp reads it back.
//
// {"format": "tracediff-summary", "schema_version": 1, "label": ..., "inputs": [...],
//  "diagnostics": {...}, "files": [{"path", "rank", ..., "keys": [[cat, name, kind]],
//  "launchers": [...], "steps": [[step, dur, gpu_busy, ...]], "cells": [[key, step,
//  count, total_ns, self_ns]], "launches": [[launcher, key, step, total_ns]]}]}
#include <ostream>

#include "model/summary.hpp"

namespace tracediff::output {

void write_summary(const model::SetSummary& summary, std::ostream& out);

}  // namespace tracediff::output

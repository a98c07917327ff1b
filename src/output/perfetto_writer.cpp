#include "output/perfetto_writer.hpp"

#include <string>

#include "output/json_emit.hpp"
#include "output/machine_number.hpp"

namespace tracediff::output {

namespace {

void metadata(JsonEmit& j, const char* name, int pid, const std::string* tid_name, std::uint32_t tid, const std::string& value,
              bool sort_index, int index) {
  j.line(2).begin_object().key("ph").string("M").key("name").string(name).key("pid").number(pid);
  if (tid_name) j.key("tid").number(tid);
  j.key("args").begin_object();
  if (sort_index) j.key("sort_index").number(index);
  else j.key("name").string(value);
  j.end_object().end_object();
}

}  // namespace

void write_perfetto(const model::DiffReport& report, const model::StepTrace& trace, std::ostream& out) {
  JsonEmit j(out);
  j.begin_object().line(0).key("traceEvents").begin_array();
  int pid = 0;
  for (const auto& side : trace.sides) {
    ++pid;
    metadata(j, "process_name", pid, nullptr, 0, side.process, false, 0);
    metadata(j, "process_sort_index", pid, nullptr, 0, {}, true, pid);
    for (std::uint32_t t = 0; t < side.threads.size(); ++t)
      metadata(j, "thread_name", pid, &side.threads[t], t + 1, side.threads[t], false, 0);
    for (const auto& e : side.events) {
      j.line(2).begin_object().key("ph").string("X").key("name").string(e.name).key("cat").string(e.category);
      j.key("pid").number(pid).key("tid").number(e.thread + 1);
      j.key("ts").number(us_decimal(e.ts_ns)).key("dur").number(us_decimal(e.dur_ns));
      if (e.top >= 0) j.key("cname").string("terrible");  // the viewers' reserved red
      j.key("args").begin_object();
      if (e.row >= 0) {
        const auto& row = report.rows[static_cast<std::size_t>(e.row)];
        // The row's name where it is not the event's (matched or short names): a step
        // holds thousands of kernels with long names.
        if (row.name != e.name) j.key("tracediff_row").string(row.name);
        j.key("tracediff_verdict").string(model::row_words(row));
        // The one Δ every list prints (DiffRow::shown): per step in µs.
        j.key("tracediff_control_us").number(us_decimal(row.shown.control_ns));
        j.key("tracediff_test_us").number(us_decimal(row.shown.test_ns));
        j.key("tracediff_delta_us").number(us_decimal(row.shown.diff_ns()));
        j.key("tracediff_delta_pct").number(pct_decimal(row.shown.pct, "null"));
      }
      if (e.top >= 0) j.key("tracediff_flag").string("top regression " + std::to_string(e.top + 1));
      if (e.path_ns > 0) j.key("tracediff_critical_path_us").number(us_decimal(e.path_ns));
      j.end_object().end_object();
    }
    // The step's critical path as two tracks of their own (docs/critical-path.md): its host
    // events and its GPU work, each event again where it ran, with its time on the path.
    const std::uint32_t first_track = static_cast<std::uint32_t>(side.threads.size()) + 1;
    bool named[2] = {false, false};
    for (const auto& e : side.events) {
      if (e.path_ns <= 0) continue;
      const bool gpu = e.gpu;
      const auto tid = first_track + (gpu ? 1 : 0);
      if (!named[gpu]) {
        const std::string track = gpu ? "critical path \xC2\xB7 GPU" : "critical path \xC2\xB7 host";
        metadata(j, "thread_name", pid, &track, tid, track, false, 0);
        named[gpu] = true;
      }
      j.line(2).begin_object().key("ph").string("X").key("name").string(e.name).key("cat").string("critical_path");
      j.key("pid").number(pid).key("tid").number(tid);
      j.key("ts").number(us_decimal(e.ts_ns)).key("dur").number(us_decimal(e.dur_ns));
      j.key("args").begin_object().key("tracediff_critical_path_us").number(us_decimal(e.path_ns)).end_object().end_object();
    }
  }
  j.end_array(0).key("displayTimeUnit").string("ns");
  // What was chosen, for the person who opens the file.
  j.line(0).key("metadata").begin_object();
  j.key("generator").string("tracediff");
  j.key("unit").string(report.unit);
  j.key("sides").begin_array();
  for (const auto& side : trace.sides) {
    j.line(2).begin_object().key("process").string(side.process).key("file").string(side.file);
    j.key("rank").number(side.rank).key("step");
    if (side.whole_trace) j.null();
    else j.number(side.step);
    j.key("step_us").number(us_decimal(side.dur_ns));
    j.key("events").number(side.events.size()).key("left_out").number(side.left_out).end_object();
  }
  j.end_array(0).end_object().end_object(0);
  out << '\n';
}

}  // namespace tracediff::output

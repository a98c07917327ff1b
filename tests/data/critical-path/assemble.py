import json
SRC = {
 "hta/analyzers/critical_path_analysis.py": "not exposed by the source index (index file id 12956850795); the version after HTA PR #272 (CUDA-runtime-lock edges, 2025-07) and before PR #279 (data_load_events); newer than 009fc8175479926aecfd5c582519e7757a421607, which it extends",
 "hta/common/trace.py": "05dc179d2eb1a4cfac54dcbe60d1ef24af1ec183",
 "hta/common/call_stack.py": "05dc179d2eb1a4cfac54dcbe60d1ef24af1ec183",
 "hta/common/trace_filter.py": "05dc179d2eb1a4cfac54dcbe60d1ef24af1ec183",
 "hta/common/trace_symbol_table.py": "not exposed (index file id 12962234777)",
 "hta/common/trace_parser.py": "00a67924931dc9c0d550d0f6d3e5a474dbcdff5d",
 "hta/common/trace_file.py": "0c2146a8d003629a67f225528969752e1f0656aa",
 "hta/common/types.py": "not exposed (index file id 12973868503)",
 "hta/analyzers/trace_counters.py": "0935ba350e84f3d7e2e43338dc4065780d78cbf6",
 "hta/utils/utils.py": "not exposed (index file id 12938348791)",
 "hta/configs/parser_config.py": "00fb18dc38fadac51f967814f29a18f3f000e3b7",
 "hta/configs/event_args_yaml_parser.py": "00fb18dc38fadac51f967814f29a18f3f000e3b7",
 "hta/configs/event_args_formats/event_args_1.0.0.yaml": "10c946f42ce55448c1cb7b6930a8a948098aa482",
 "hta/configs/env_options.py": "not exposed (index file id 13488285069)",
 "hta/trace_analysis.py": "01d8bd18706653c4e339e98e3e7799526ad9c1e0 (TraceAnalysis.__init__ and critical_path_analysis only)",
}
BOUNDS = ["cpu_bound", "gpu_compute_bound", "gpu_communication_bound",
          "gpu_kernel_launch_overhead", "gpu_kernel_kernel_overhead"]
out = {
 "what": "Critical path figures of Holistic Trace Analysis (HTA) on the hta-trace-diff pair, one ProfilerStep at a time; see README.md",
 "hta_commit": "05dc179d2eb1a4cfac54dcbe60d1ef24af1ec183 (HTA 0.6.0 release commit) for trace.py/call_stack.py/trace_filter.py; other files from nearby stored versions, see hta_sources",
 "hta_version": "0.6.0 (version.py at 05dc179); critical_path_analysis.py is the July-2025 version (no data_load_events)",
 "hta_sources": SRC,
 "command": "TraceAnalysis(trace_dir=<dir holding only that side's trace>).critical_path_analysis(rank=<file's rank>, annotation='ProfilerStep', instance_id=<0 for #1009, 1 for #1010>); then cp_graph.get_critical_path_breakdown() and cp_graph.summary()",
 "env": "Debian 12 python3 3.11.2, python3-pandas 1.5.3, python3-networkx 2.8.8, python3-numpy 1.24.2; HTA defaults (JSON parser backend, include_last_profiler_step=False, no CRITICAL_PATH_* env vars)",
 "units": "microseconds; ts values absolute as in the trace file; window_rel is HTA's own frame (trace min ts subtracted)",
 "fields": {
  "window": "[start, end] of the chosen ProfilerStep: ts and ts+dur (absolute)",
  "window_rel": "the same as HTA holds it after _align_all_ranks (ts - min_ts)",
  "length_us": "sum of the weights of the edges on the path (= sum of breakdown 'duration' = nx.dag_longest_path_length)",
  "by_bound": "sum of breakdown 'duration' per bound_by; zero-weight dependency/sync edges have bound_by '' and are left out",
  "summary_pct": "cp_graph.summary() output (percent of length_us)",
  "events": "per trace event the edges are attributed to (edge_to_event_map): name, cat, ts (abs), dur, pid, tid, stream, on_path_us = sum of its attributed edge weights, bound = bound_by values of those edges; top 200 by on_path_us (ties by ts)",
  "unattributed_us": "weight of path edges HTA attributes to no event (kernel_launch_delay edges: _attribute_edge() only handles operator and kernel_kernel_delay edges); events' on_path_us + this = length_us",
  "events_rest": "count and on_path_us of attributed events beyond the top 200",
  "delay_edges": "every kernel_launch_delay / kernel_kernel_delay edge on the path, in path order"
 },
 "sides": {},
}
for side in ["control", "test"]:
    o = json.load(open(f"/tmp/hta-run/out_{side}.json"))
    m = o["min_ts"]
    sd = {"file": f"../shared/traces/hta-trace-diff/{side}/{side}.json.gz", "rank": o["rank"], "min_ts": m,
          "events_after_load": o["n_events_after_load"], "load_wall_s": o["load_wall_s"],
          "profiler_steps_after_load": [[i["instance_id"], i["name"], i["ts_rel"] + m, i["dur"]] for i in o["instances"]]}
    for st, d in o["steps"].items():
        bb = {k: d["by_bound_us"].get(k, 0) for k in BOUNDS}
        extra = {k: v for k, v in d["by_bound_us"].items() if k not in BOUNDS and not k.startswith("(")}
        bb.update(extra)
        ev = d["events"]
        top = ev[:200]; rest = ev[200:]
        delay = [
            {"type": e["type"], "us": e["weight"], "src_ev": e["src_ev"], "dst_ev": e["dst_ev"],
             "from_ts": e["src_ts"], "to_ts": e["dst_ts"]}
            for e in d["path_edges"] if e["type"] in ("kernel_launch_delay", "kernel_kernel_delay")]
        sd[st] = {
            "instance_id": d["instance_id"],
            "window": d["window_abs"], "window_rel": d["window_rel"], "step_dur_us": d["step_dur_us"],
            "length_us": d["length_us_breakdown_sum"],
            "by_bound": bb,
            "by_bound_sum_us": sum(bb.values()),
            "summary_pct": {k: v for k, v in d["summary_pct"].items() if k != ""},
            "by_edge_type": {k.replace("critical_path_", ""): v for k, v in d["by_edge_type"].items()},
            "path": {"nodes": d["path_nodes"], "edges": d["path_edges"] if isinstance(d["path_edges"], int) else len(d["path_edges"]),
                     "first_node": d["path_first_node"], "last_node": d["path_last_node"]},
            "graph": {"clipped_events": d["clipped_events"], "nodes": d["graph_nodes"], "edges": d["graph_edges"]},
            "cp_wall_s": d["cp_wall_s"],
            "events_total": len(ev),
            "events": [{"name": e["name"], "cat": e["cat"], "ts": e["ts"], "dur": e["dur"], "pid": e["pid"], "tid": e["tid"],
                        "stream": e["stream"], "on_path_us": e["on_path_us"], "bound": e["bound_by"], "ev": e["event_idx"]} for e in top],
            "events_rest": {"count": len(rest), "on_path_us": sum(e["on_path_us"] for e in rest)},
            "delay_edges": delay,
        }
        assert sd[st]["by_bound_sum_us"] == sd[st]["length_us"], (side, st)
        sd[st]["unattributed_us"] = sd[st]["length_us"] - sum(e["on_path_us"] for e in ev)
        assert sd[st]["unattributed_us"] == bb["gpu_kernel_launch_overhead"], (side, st)
    out["sides"][side] = sd

# compact but readable: one event per line
s = json.dumps(out, indent=1)
import re
s = re.sub(r'\{\n\s+"name": (.*?)\n\s+\}', lambda mm: "{" + " ".join(x.strip() for x in ('"name": ' + mm.group(1)).split("\n")) + "}", s, flags=re.S)
s = re.sub(r'\[\n\s+(-?\d+),\n\s+(-?\d+)\n\s+\]', r'[\1, \2]', s)
s = re.sub(r'\{\n\s+"type": (.*?)\n\s+\}', lambda mm: "{" + " ".join(x.strip() for x in ('"type": ' + mm.group(1)).split("\n")) + "}", s, flags=re.S)
json.loads(s)
open("/work/main/tests/data/critical-path/hta-trace-diff.json", "w").write(s + "\n")
print(len(s))

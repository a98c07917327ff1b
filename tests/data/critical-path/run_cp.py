"""Driver: run HTA's (reconstructed) critical path analysis on one side, steps 1009/1010."""
import json, sys, time
sys.path.insert(0, "/tmp/hta-src")
import networkx as nx
import pandas as pd
from hta.trace_analysis import TraceAnalysis

side = sys.argv[1]
trace_dir = f"/tmp/hta-run/{side}"
t0 = time.perf_counter()
ta = TraceAnalysis(trace_dir=trace_dir)
t_load = time.perf_counter() - t0
t = ta.t
rank = t.get_ranks()[0]
df = t.get_trace(rank)
sym = t.symbol_table
sym_index = sym.get_sym_id_map()
annotation = "ProfilerStep"
annotation_ids = [val for key, val in sym_index.items() if annotation in key]
ann = df[df.name.isin(annotation_ids)]
instances = [
    {"instance_id": i, "name": sym.sym_table[r.name], "ts_rel": int(r.ts), "dur": int(r.dur)}
    for i, r in enumerate(ann.itertuples())
]
out = {"side": side, "rank": int(rank), "min_ts": int(t.min_ts), "load_wall_s": round(t_load, 2),
       "n_events_after_load": int(len(df)), "instances": instances, "steps": {}}
print(json.dumps(instances), file=sys.stderr)
for inst in instances:
    step = inst["name"].split("#")[-1]
    if step not in ("1009", "1010"):
        continue
    iid = inst["instance_id"]
    t1 = time.perf_counter()
    cp_graph, success = ta.critical_path_analysis(rank=rank, annotation=annotation, instance_id=iid)
    t_cp = time.perf_counter() - t1
    # window exactly as critical_path_analysis computes it
    a2 = ann.copy(); a2["end_ts"] = a2["ts"] + a2["dur"]
    start_ts = int(a2.ts[iid: iid + 1].min()); end_ts = int(a2.end_ts[iid: iid + 1].max())
    edges = [cp_graph.edges[u, v]["object"] for u, v in zip(cp_graph.critical_path_nodes[:-1], cp_graph.critical_path_nodes[1:])]
    graph_w = [cp_graph.edges[u, v]["weight"] for u, v in zip(cp_graph.critical_path_nodes[:-1], cp_graph.critical_path_nodes[1:])]
    edf = cp_graph.get_critical_path_breakdown()
    summary = cp_graph.summary()
    first = cp_graph.node_list[cp_graph.critical_path_nodes[0]]
    last = cp_graph.node_list[cp_graph.critical_path_nodes[-1]]
    by_bound = {str(k if k != "" else "(dependency/sync, zero weight)"): int(v) for k, v in edf.groupby("bound_by").duration.sum().items()}
    by_type = {str(k): {"edges": int(g.shape[0]), "us": int(g.duration.sum())} for k, g in edf.groupby("type")}
    # per-event rows: edges grouped by attributed event
    tdf = cp_graph.trace_df
    ev_rows = []
    e_att = edf.dropna(subset=["event_idx"]).copy()
    e_att["event_idx"] = e_att["event_idx"].astype(int)
    for ev, g in e_att.groupby("event_idx"):
        r = tdf.loc[ev]
        ev_rows.append({
            "event_idx": int(ev),
            "name": sym.sym_table[int(r["name"])],
            "cat": sym.sym_table[int(r["cat"])],
            "ts": int(r["ts"]) + int(t.min_ts),
            "dur": int(r["dur"]),
            "pid": int(r["pid"]), "tid": int(r["tid"]), "stream": int(r["stream"]),
            "on_path_us": int(g.duration.sum()),
            "edges": {str(k): int(v) for k, v in g.groupby("type").duration.sum().items()},
            "bound_by": sorted(set(g.bound_by)),
        })
    ev_rows.sort(key=lambda x: (-x["on_path_us"], x["ts"]))
    # path in order (node sequence) for reference
    path_edges = []
    for e, gw in zip(edges, graph_w):
        s_ev, d_ev = cp_graph.get_events_for_edge(e)
        path_edges.append({
            "type": e.type.value.replace("critical_path_", ""),
            "weight": int(e.weight), "graph_weight": int(gw),
            "src_ev": s_ev, "src_is_start": bool(cp_graph.node_list[e.begin].is_start),
            "dst_ev": d_ev, "dst_is_start": bool(cp_graph.node_list[e.end].is_start),
            "src_ts": int(cp_graph.node_list[e.begin].ts) + int(t.min_ts),
            "dst_ts": int(cp_graph.node_list[e.end].ts) + int(t.min_ts),
            "attributed_ev": cp_graph.get_event_attribution_for_edge(e),
        })
    out["steps"][step] = {
        "instance_id": iid, "success": bool(success), "cp_wall_s": round(t_cp, 2),
        "window_rel": [start_ts, end_ts], "window_abs": [start_ts + int(t.min_ts), end_ts + int(t.min_ts)],
        "step_dur_us": end_ts - start_ts,
        "clipped_events": int(len(cp_graph.trace_df)),
        "graph_nodes": cp_graph.number_of_nodes(), "graph_edges": cp_graph.number_of_edges(),
        "path_nodes": len(cp_graph.critical_path_nodes), "path_edges": len(edges),
        "length_us_breakdown_sum": int(edf.duration.sum()),
        "length_us_graph_weights": int(sum(graph_w)),
        "length_us_nx": int(nx.dag_longest_path_length(cp_graph, weight="weight")),
        "path_first_node": {"ev": int(first.ev_idx), "ts": int(first.ts) + int(t.min_ts), "is_start": bool(first.is_start)},
        "path_last_node": {"ev": int(last.ev_idx), "ts": int(last.ts) + int(t.min_ts), "is_start": bool(last.is_start)},
        "by_bound_us": by_bound,
        "summary_pct": {str(k): float(round(v, 4)) for k, v in summary.items()},
        "by_edge_type": by_type,
        "events": ev_rows,
        "path_edges": path_edges,
    }
    print(f"{side} step {step} iid={iid} ok={success} len={edf.duration.sum()} t={t_cp:.1f}s", file=sys.stderr)
json.dump(out, open(f"/tmp/hta-run/out_{side}.json", "w"), indent=1, default=int)

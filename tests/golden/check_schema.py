#!/usr/bin/env python3
"""Validates the golden outputs against the published JSON Schemas (ctest json_schema).

Every tests/golden/*/report.json against docs/report.schema.json and every *.tdsum.json
against docs/summary.schema.json (draft 2020-12), then doctored copies that must fail: a
schema that accepts them is too loose to catch a writer that changes its output. Exit 77
(skipped) without python3's jsonschema module (Debian: python3-jsonschema).
"""
import copy
import glob
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:
    print("json_schema: skipped (no python3 jsonschema module; Debian package python3-jsonschema)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
failures = []


def fail(msg):
    failures.append(msg)
    print("json_schema: FAIL: " + msg)


def validator(name):
    path = os.path.join(REPO, "docs", name)
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema, jsonschema.Draft202012Validator(schema)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_files(v, pattern):
    files = sorted(glob.glob(os.path.join(HERE, pattern)))
    if not files:
        fail("no files match tests/golden/" + pattern)
    docs = {}
    for path in files:
        doc = load(path)
        rel = os.path.relpath(path, REPO)
        errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:10]:
            fail("%s: %s: %s" % (rel, e.json_path, e.message[:300]))
        docs[rel] = doc
    return docs


def must_fail(v, what, doc):
    if v.is_valid(doc):
        fail("the schema accepts a doctored document: " + what)


def first(docs, pred):
    for doc in docs.values():
        if pred(doc):
            return doc
    return None


report_schema, report = validator("report.schema.json")
summary_schema, summary = validator("summary.schema.json")
reports = check_files(report, "*/report.json")
summaries = check_files(summary, "*/*.tdsum.json")

# Doctored reports: each edit is one a writer change could make without anyone noticing.
default = first(reports, lambda d: d.get("mode") == "default" and d["rows"] and "call_tree" in d)
compat = first(reports, lambda d: d.get("mode") == "hta-compat")
if default is None or compat is None:
    fail("the golden reports lack a default-mode or an --hta-compat report")
else:
    edits = {
        "an unknown top-level key": lambda d: d.__setitem__("surprise", 1),
        "no rows": lambda d: d.pop("rows"),
        "a count as a string": lambda d: d["rows"][0].__setitem__("control_count", "3"),
        "an unknown verdict mark": lambda d: d["verdict"].__setitem__("mark", "maybe"),
        "an unknown row field": lambda d: d["rows"][0].__setitem__("extra_us", 1.5),
        "a row with half its per-step fields": lambda d: d["rows"][0].pop("verdict"),
        "an unknown verdict": lambda d: d["families"][0].__setitem__("verdict", "worse") if d["families"]
        else d.__setitem__("families", [{}]),
        "a default-mode report without its call tree": lambda d: d.pop("call_tree"),
        "a call-tree node with an unknown key": lambda d: d["call_tree"]["top"][0].__setitem__("x", 0),
        "a side without files": lambda d: d["control"].pop("files"),
        "an unknown diagnostic": lambda d: d["diagnostics"]["counts"].__setitem__("no_such_diagnostic", 1),
        "a percentage as a string": lambda d: d["headline"][0].__setitem__("diff_pct", "5%"),
    }
    for what, edit in edits.items():
        d = copy.deepcopy(default)
        edit(d)
        must_fail(report, what, d)
    d = copy.deepcopy(compat)
    d["steps"] = default["steps"]
    must_fail(report, "an --hta-compat report with default-mode steps", d)

# Doctored summaries.
if summaries:
    s0 = next(iter(summaries.values()))
    edits = {
        "another schema version": lambda d: d.__setitem__("schema_version", 5),
        "cells without their wait column": lambda d: d["files"][0]["cells"].pop("wait"),
        "a string in place of a key's index": lambda d: d["files"][0]["keys"].__setitem__(0, "cpu_op"),
        "a unit of 0": lambda d: d["files"][0].__setitem__("unit", 0),
        "no strings": lambda d: d.pop("strings"),
        "an unknown file key": lambda d: d["files"][0].__setitem__("extra", []),
        "an unknown cells column": lambda d: d["files"][0]["cells"].__setitem__("extra", []),
    }
    for what, edit in edits.items():
        d = copy.deepcopy(s0)
        edit(d)
        must_fail(summary, "summary: " + what, d)

# The enumerations the schemas copy from the sources, while those sources are where they were.
diag_def = os.path.join(REPO, "src", "model", "input_diagnostics.def")
if os.path.exists(diag_def):
    with open(diag_def, encoding="utf-8") as f:
        names = re.findall(r"^X\((\w+),", f.read(), re.M)
    for name, schema in (("report", report_schema), ("summary", summary_schema)):
        if schema["$defs"]["diag_kind"]["enum"] != names:
            fail("docs/%s.schema.json: $defs.diag_kind differs from src/model/input_diagnostics.def" % name)
step_detail_hpp = os.path.join(REPO, "src", "model", "step_detail.hpp")
if os.path.exists(step_detail_hpp):
    with open(step_detail_hpp, encoding="utf-8") as f:
        text = f.read()
    block = text[text.find("k_step_fields[] = {"):]
    fields = re.findall(r'\{"(\w+)", &StepDetail::', block[: block.find("};")])
    steps = summary_schema["$defs"]["file"]["properties"]["step_figures"]["x-step-fields"]
    if fields and steps != fields:
        fail("docs/summary.schema.json: step_figures' x-step-fields %s are not model::k_step_fields %s" % (steps, fields))

checked = len(reports) + len(summaries)
if failures:
    print("json_schema: %d problems (%d documents checked)" % (len(failures), checked))
    sys.exit(1)
print("json_schema: %d reports and %d summaries valid; every doctored copy refused" % (len(reports), len(summaries)))

#!/usr/bin/env python3
"""The Action's steps under hostile strings (issue 31 items 1 and 8): a pull request
chooses its traces' kernel and operator names, its trace files' names and often the
labels; none of it may reach the runner as a workflow command.

    hostile_test.py TRACEDIFF_BINARY

Runs scripts/action/compare.sh and scripts/pr-comment.sh (against fake_github.py, whose
replies carry hostile text too) as action.yml runs them, first on a fixed set of payloads
(::error::, ::add-mask::, ##[set-output ...], stop-commands look-alikes, line breaks,
leading white space; in names, file names and labels; inputs given as a directory, a glob
and a list), then on ACTION_FUZZ_RUNS (default 20) generated cases (seed ACTION_FUZZ_SEED,
default 31). Every step's log goes through runner_commands.py, the runner's parser
replicated: no line outside a stop-commands window may be a command. Also: every run
succeeds (the names are data), the comment written is ours (someone else's with the
marker is never edited). Exit 77 (ctest: skipped) without curl.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
failures = []


def check(what, ok, detail=""):
    print(("ok: " if ok else "FAILED: ") + what + ("" if ok else f" {detail}"))
    if not ok:
        failures.append(what)


def write_trace(path, kernels, steps=4):
    """A small Kineto trace: per step, each (name, duration) as an operator that launches
    a kernel of the same name."""
    ev, t, corr = [], 0, 1
    for s in range(1, steps + 1):
        start, body = t, []
        t += 10
        for name, dur in kernels:
            body.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": t, "dur": 20})
            body.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                         "ts": t + 5, "dur": 5, "args": {"correlation": corr}})
            body.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": t + 12,
                         "dur": dur + s, "args": {"correlation": corr, "device": 0, "stream": 7}})
            corr += 1
            t += dur + 30
        ev.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{s}", "pid": 1, "tid": 1,
                   "ts": start, "dur": t - start})
        ev += body
        t += 10
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU"}], "traceEvents": ev}, f)


# What the runner parses, and what shells, option parsers and Markdown trip on.
FRAGMENTS = ["::", "::error::", "::add-mask::", "::warning file=a,line=1::", "::set-output name=x::",
             "::stop-commands::", "::endgroup::", "::group::", "##[", "]", "##[set-output name=z]", "##[add-mask]",
             "##[error]", "%0A", "%0D", "%25", "\n", "\r", "\r\n", " ", "  ", "\t", "\u2028", "\x85", "\x0b",
             "$(id)", "`id`", "${HOME}", "'", '"', "\\", "--", "-o", "--fail-on=", "*", "?", "[", "{a,b}", "~",
             "<!-- tracediff-report -->", "@mallory", "ß", "€", "::" + "0" * 32 + "::", "0123456789abcdef" * 2]


def hostile(rng, parts=6):
    return "".join(rng.choice(FRAGMENTS + list("abcxyz:#[]-")) for _ in range(rng.randint(1, parts)))


def file_name(rng):
    """A hostile file name tracediff reads (*.json), not hidden, under 200 bytes."""
    name = hostile(rng).replace("/", "_").replace("\0", "")
    name = name.lstrip(".") or "x"
    return (name + ".json").encode("utf-8")[:200].decode("utf-8", "ignore").removesuffix(".json") + ".json"


def input_value(rng, directory, files):
    """The side as the action's input: the directory, a glob, or a list of its files."""
    forms = ["dir", "glob"]
    if not any(c in f for f in files for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029") and \
            all(f == f.strip() for f in files):
        forms.append("lines")
        if not any(c.isspace() for f in files for c in f) and not any(c in f for f in files for c in "*?["):
            forms.append("spaces")
    form = rng.choice(forms)
    paths = [os.path.join(directory, f) for f in files]
    if form == "dir":
        return directory
    if form == "glob":
        return os.path.join(directory, "*.json")
    return ("\n" if form == "lines" else " ").join(paths)


def main():
    binary = os.path.realpath(sys.argv[1])
    if not shutil.which("curl"):
        print("hostile action test: skipped: no curl")
        return 77
    runs = int(os.environ.get("ACTION_FUZZ_RUNS", "20"))
    seed = int(os.environ.get("ACTION_FUZZ_SEED", "31"))
    tmp = tempfile.mkdtemp(prefix="tracediff-action-")
    server = None
    try:
        api_log = os.path.join(tmp, "api.log")
        open(api_log, "w").close()
        more = os.path.join(tmp, "more.json")
        with open(more, "w") as f:  # someone else's comment with our marker, first
            json.dump([{"login": "mallory", "body": "<!-- tracediff-report -->\n::error::mine ##[add-mask]x"}], f)
        env = dict(os.environ, FAKE_GITHUB_URL_TAIL=" ##[add-mask]api\n::error::api reply")
        server = subprocess.Popen([sys.executable, os.path.join(here, "fake_github.py"), api_log,
                                   os.path.join(tmp, "port"), "3", more], env=env)
        for _ in range(300):
            if os.path.exists(os.path.join(tmp, "port")):
                break
            time.sleep(0.05)
        port = open(os.path.join(tmp, "port")).read()
        event = os.path.join(tmp, "event.json")
        with open(event, "w") as f:
            json.dump({"pull_request": {"number": 42}}, f)
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}
        base_env.update(GITHUB_API_URL=f"http://127.0.0.1:{port}", GITHUB_REPOSITORY="octo/repo",
                        GITHUB_EVENT_PATH=event, GITHUB_TOKEN="fake-token-123", GITHUB_RUN_ID="777",
                        TRACEDIFF=binary, RUNNER_TEMP=tmp)
        logs = []

        def run_case(name, control_dir, test_dir, control_files, test_files, labels, rng, fixed):
            case_env = dict(base_env, GITHUB_OUTPUT=os.path.join(tmp, f"{name}.out"),
                            GITHUB_STEP_SUMMARY=os.path.join(tmp, f"{name}.summary.md"),
                            INPUT_CONTROL=fixed[0] if fixed else input_value(rng, control_dir, control_files),
                            INPUT_TEST=fixed[1] if fixed else input_value(rng, test_dir, test_files),
                            INPUT_LABEL_CONTROL=labels[0], INPUT_LABEL_TEST=labels[1],
                            INPUT_FAIL_ON="added>0")
            log = os.path.join(tmp, f"{name}.compare.log")
            with open(log, "wb") as out:
                rc = subprocess.call(["bash", os.path.join(root, "scripts/action/compare.sh")], env=case_env,
                                     stdout=out, stderr=out, cwd=tmp)
            logs.append(log)
            outputs = dict(line.split("=", 1) for line in open(case_env["GITHUB_OUTPUT"], encoding="utf-8")
                           .read().splitlines() if "=" in line)
            ok = rc == 0 and outputs.get("exit-code") in ("0", "3") and os.path.isfile(outputs.get("markdown-path", ""))
            check(f"{name}: compare.sh ran tracediff to the end (exit-code {outputs.get('exit-code')})", ok,
                  open(log, "rb").read()[-1500:].decode("utf-8", "replace"))
            if not ok:
                return
            plog = os.path.join(tmp, f"{name}.comment.log")
            with open(plog, "wb") as out:
                rc = subprocess.call(["bash", os.path.join(root, "scripts/pr-comment.sh"), outputs["markdown-path"]],
                                     env=case_env, stdout=out, stderr=out)
            logs.append(plog)
            check(f"{name}: pr-comment.sh succeeds", rc == 0, open(plog, "rb").read()[-800:])
            for lg, need in ((log, 5 if fixed else 0), (plog, 1)):
                r = subprocess.run([sys.executable, os.path.join(here, "runner_commands.py"),
                                    "--need-neutralised", str(need), lg], capture_output=True, text=True)
                check(f"{name}: {os.path.basename(lg)}: no workflow command outside the window "
                      f"({r.stdout.splitlines()[0] if r.stdout else ''})", r.returncode == 0, r.stdout[-3000:])

        # --- the fixed payloads of the issue.
        names = ["::error::x", "::add-mask::y", "##[set-output name=z]v", "  ::warning file=a::b",
                 "x\n::error::nl", "x\r::notice::cr", "::" + "0123456789abcdef" * 2 + "::",
                 "::stop-commands::" + "f" * 32, "%0A::error::pct"]
        cdir, tdir = os.path.join(tmp, "fixed", "control"), os.path.join(tmp, "fixed", "test dir")
        os.makedirs(cdir)
        os.makedirs(tdir)
        control_files = ["::error::file.json", "##[add-mask]c2.json"]
        test_files = ["x\n::add-mask::file.json", "##[error]t2.json", "-o evil.json"]
        for f in control_files:
            write_trace(os.path.join(cdir, f), [("gemm", 100)] + [(n, 50) for n in names[:4]])
        for f in test_files:
            write_trace(os.path.join(tdir, f), [("gemm", 300)] + [(n, 150) for n in names])
        with open(os.path.join(tdir, "\n::error::broken.json"), "w") as f:
            f.write('{"traceEvents":[{"ph":"X",')  # a warning that names the file
        labels = ("::error::label ##[add-mask]c", "\n::warning::label-test")
        run_case("fixed-dirs", cdir, tdir, control_files, test_files, labels, None, (cdir, tdir))
        run_case("fixed-list", cdir, tdir, control_files, test_files,
                 labels, None,
                 (cdir, "\n".join(os.path.join(tdir, g) for g in
                                   ["*2.json", "x?::add-mask::file.json", "-o evil.json", "?::error::broken.json"])))

        # --- generated cases.
        rng = random.Random(seed)
        print(f"fuzz: {runs} cases, seed {seed} (ACTION_FUZZ_RUNS, ACTION_FUZZ_SEED)")
        for i in range(runs):
            cdir = os.path.join(tmp, f"case{i}", "control")
            tdir = os.path.join(tmp, f"case{i}", "test")
            os.makedirs(cdir)
            os.makedirs(tdir)
            kernels = list(dict.fromkeys(hostile(rng) for _ in range(5)))
            cf = list(dict.fromkeys(file_name(rng) for _ in range(rng.randint(1, 2))))
            tf = list(dict.fromkeys(file_name(rng) for _ in range(rng.randint(1, 2))))
            for f in cf:
                write_trace(os.path.join(cdir, f), [(k, 50) for k in kernels[:3]])
            for f in tf:
                write_trace(os.path.join(tdir, f), [(k, 120) for k in kernels])
            run_case(f"case{i}", cdir, tdir, cf, tf, (hostile(rng), hostile(rng)), rng, None)

        r = subprocess.run([sys.executable, os.path.join(here, "runner_commands.py")] + logs,
                           capture_output=True, text=True)
        check("every window's token is fresh, across all runs", r.returncode == 0, r.stdout[-2000:])
        reqs = [json.loads(line) for line in open(api_log, encoding="utf-8")]
        edited = {r["path"] for r in reqs if r["method"] == "PATCH"}
        check("someone else's comment with the marker is never edited", edited == {"/repos/octo/repo/issues/comments/5000"},
              str(edited))
        check("one comment posted, then updated", sum(r["method"] == "POST" for r in reqs) == 1)
    finally:
        if server:
            server.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"hostile action test: {len(failures)} failed")
        return 1
    print("hostile action test: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

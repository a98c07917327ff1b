#!/usr/bin/env python3
"""The GitHub runner's workflow-command parser, replicated to check what a step prints.

    runner_commands.py [--own REGEX]... [--need-neutralised N] LOG...

Each LOG is one step's output (stdout and stderr as the runner reads them). The runner
(actions/runner, ActionCommandManager) takes a line as a command when, after its leading
white space, it starts with "::NAME ...::" (v2), or when it holds "##[NAME ...]" anywhere
(v1). After "::stop-commands::TOKEN" it executes nothing until a line whose command is
TOKEN ("::TOKEN::" or "##[TOKEN]"). This replica is stricter than the runner: any NAME
counts (the runner knows a fixed set), lines split at every line break Python knows
(the runner: \\n, \\r, \\r\\n), and any "##[" on a line may resume a window.

Fails (exit 1) when a line outside a window is a command other than a window's opening
or a line matching an --own REGEX (the step's own commands), when a window's token is not
32 random-looking hex digits or was used before (across all LOGs), or when a window is
left open at a LOG's end. Prints a JSON summary: windows, the commands held inside them
("neutralised": what the runner would have executed without the window), tokens.
--need-neutralised N fails unless at least N were held: a check that the hostile
strings reached the log at all.
"""
import json
import re
import sys


def v2_name(line):
    m = line.lstrip()
    if not m.startswith("::"):
        return None
    end = m.find("::", 2)
    if end < 0:
        return None
    return m[2:end].split(" ", 1)[0]


def v1_names(line):
    names, i = [], line.find("##[")
    while i >= 0:
        j = line.find("]", i)
        if j < 0:
            break
        names.append(line[i + 3:j].split(" ", 1)[0])
        i = line.find("##[", i + 3)
    return names


def command(line):
    """Every command name a line could carry (the runner takes v2 first, else the first v1)."""
    name = v2_name(line)
    return ([name] if name is not None else []) + v1_names(line)


def main(argv):
    own, need, logs = [], 0, []
    i = 0
    while i < len(argv):
        if argv[i] == "--own":
            own.append(re.compile(argv[i + 1]))
            i += 2
        elif argv[i] == "--need-neutralised":
            need = int(argv[i + 1])
            i += 2
        else:
            logs.append(argv[i])
            i += 1
    problems, tokens, neutralised, windows = [], [], 0, 0
    for log in logs:
        text = open(log, "rb").read().decode("utf-8", errors="replace")
        token = None
        for n, line in enumerate(text.splitlines(), 1):
            names = command(line)
            if not names:
                continue
            if token is not None:
                if any(x.lower() == token.lower() for x in names):
                    token = None
                else:
                    neutralised += 1
                continue
            if v2_name(line) == "stop-commands" and re.fullmatch(r"::stop-commands::\S+", line.strip()):
                t = line.strip()[len("::stop-commands::"):]
                if not re.fullmatch(r"[0-9a-f]{32}", t):
                    problems.append(f"{log}:{n}: weak stop-commands token {t!r}")
                if t in tokens:
                    problems.append(f"{log}:{n}: stop-commands token used again: {t}")
                tokens.append(t)
                token, windows = t, windows + 1
                continue
            if any(r.fullmatch(line.strip()) for r in own):
                continue
            problems.append(f"{log}:{n}: the runner would execute {names}: {line!r}")
        if token is not None:
            problems.append(f"{log}: the stop-commands window {token} is never closed")
    if neutralised < need:
        problems.append(f"only {neutralised} command lines were held in windows, {need} needed: "
                        "did the hostile strings reach the log?")
    print(json.dumps({"windows": windows, "neutralised": neutralised, "tokens": tokens}))
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

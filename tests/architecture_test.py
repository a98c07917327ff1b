#!/usr/bin/env python3
"""ARCHITECTURE.md is true to the code: every #include keeps to its table of folders.

Usage: architecture_test.py REPO_ROOT. Reads the ```deps block of ARCHITECTURE.md (one line per
top-level folder of src/, "folder: folders it may include"; a file directly in src/ counts by its
stem, main.cpp as "main") and every '#include "..."' line under src/. Fails, naming file:line,
for an include that breaks the table, and for a folder of src/ or src/analysis/ that the table
or the page's text does not mention.
"""
import os
import re
import sys


def read_rules(text):
    m = re.search(r'^```deps\n(.*?)^```', text, re.S | re.M)
    if not m:
        sys.exit('ARCHITECTURE.md: no ```deps block')
    rules = {}
    for number, line in enumerate(m.group(1).splitlines(), 1):
        if not line.strip():
            continue
        name, sep, allowed = line.partition(':')
        if not sep:
            sys.exit(f'ARCHITECTURE.md: deps line {number} is not "folder: folders": {line!r}')
        rules[name.strip()] = set(allowed.split())
    return rules


def unit_of(src, path):
    """The top-level folder of src/ a file belongs to, or the stem of a file directly in src/."""
    first = os.path.relpath(path, src).split(os.sep)[0]
    return first if os.path.isdir(os.path.join(src, first)) else os.path.splitext(first)[0]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
    src = os.path.join(root, 'src')
    with open(os.path.join(root, 'ARCHITECTURE.md'), encoding='utf-8') as f:
        text = f.read()
    rules = read_rules(text)
    errors = []

    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    top_files = sorted(os.path.splitext(f)[0] for f in os.listdir(src)
                       if os.path.isfile(os.path.join(src, f)) and f.endswith(('.cpp', '.hpp')))
    for unit in folders + top_files:
        if unit not in rules:
            errors.append(f'ARCHITECTURE.md: src/{unit} has no line in the deps block')
    for unit in sorted(set(rules) - set(folders) - set(top_files)):
        errors.append(f'ARCHITECTURE.md: the deps block names {unit}, which is not in src/')
    analysis = os.path.join(src, 'analysis')
    for d in sorted(os.listdir(analysis)) if os.path.isdir(analysis) else []:
        if os.path.isdir(os.path.join(analysis, d)) and not re.search(rf'(?<![\w/]){re.escape(d)}/', text):
            errors.append(f'ARCHITECTURE.md: src/analysis/{d}/ is not described (no "{d}/" in the text)')
    for d in folders:
        if f'{d}/' not in text:
            errors.append(f'ARCHITECTURE.md: src/{d}/ is not described (no "{d}/" in the text)')

    includes = 0
    for dirpath, _, files in os.walk(src):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            unit = unit_of(src, path)
            with open(path, encoding='utf-8', errors='replace') as f:
                for number, line in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    includes += 1
                    target = m.group(1)
                    if os.path.exists(os.path.join(dirpath, target)):  # beside the file
                        to = unit_of(src, os.path.normpath(os.path.join(dirpath, target)))
                    elif os.path.exists(os.path.join(src, target)):
                        to = unit_of(src, os.path.join(src, target))
                    elif target.split('/')[0] in rules:  # generated at build time, say
                        to = target.split('/')[0]
                    else:
                        errors.append(f'{rel}:{number}: #include "{target}" is no file under src/')
                        continue
                    if to != unit and to not in rules.get(unit, set()):
                        errors.append(f'{rel}:{number}: {unit} may not include {to} ("{target}"; '
                                      f'ARCHITECTURE.md allows {unit}: {" ".join(sorted(rules.get(unit, ()))) or "nothing"})')
    for e in errors:
        print(e)
    print(f'{includes} includes checked, {len(errors)} problems')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())

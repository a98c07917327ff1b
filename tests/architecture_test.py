#!/usr/bin/env python3
"""ARCHITECTURE.md is true to the code: every #include keeps to its table of folders, and
inside analysis/ to its order of rooms.

Usage: architecture_test.py REPO_ROOT. Reads the ```deps block of ARCHITECTURE.md (one line per
top-level folder of src/, "folder: folders it may include"; a file directly in src/ counts by its
stem, main.cpp as "main"), its ```rooms block (the order of analysis/'s rooms, one line each,
the lowest first: the sub-folders, "name/", and files directly in src/analysis/ a room holds; a
room may include itself and the rooms before it, never one after it) and every '#include "..."' line
under src/. Fails, naming file:line, for an include that breaks the table or the order, for a
folder or file of src/analysis/ in no room, and for a folder of src/ or src/analysis/ that the
table or the page's text does not mention.
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


def read_rooms(text):
    """analysis/'s rooms, lowest first: a list of (line, [members]); a member is "name/" for a
    sub-folder of src/analysis/ or the name of a file directly in it."""
    m = re.search(r'^```rooms\n(.*?)^```', text, re.S | re.M)
    if not m:
        sys.exit('ARCHITECTURE.md: no ```rooms block (the order of analysis/\'s rooms)')
    rooms = []
    for line in m.group(1).splitlines():
        members = line.split()
        if members:
            rooms.append((line.strip(), members))
    return rooms


def room_member(src, path):
    """For a file under src/analysis/: its sub-folder as "name/", or its own name when it lies
    directly in src/analysis/; None for a file elsewhere."""
    parts = os.path.relpath(path, src).split(os.sep)
    if parts[0] != 'analysis' or len(parts) < 2:
        return None
    return parts[1] + '/' if len(parts) > 2 else parts[1]


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
    rooms = read_rooms(text)
    errors = []
    level = {}  # member of a room -> the room's place in the order, 0 at the bottom
    for i, (_, members) in enumerate(rooms):
        for member in members:
            if member in level:
                errors.append(f'ARCHITECTURE.md: the rooms block names {member} twice')
            level[member] = i
    order = ' < '.join(members[0] if len(members) == 1 else '(' + ' '.join(members) + ')'
                       for _, members in rooms)

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
    if os.path.isdir(analysis):
        present = {d + '/' if os.path.isdir(os.path.join(analysis, d)) else d for d in os.listdir(analysis)
                   if os.path.isdir(os.path.join(analysis, d)) or d.endswith(('.cpp', '.hpp'))}
        for member in sorted(present - set(level)):
            errors.append(f'ARCHITECTURE.md: src/analysis/{member} is in no room of the rooms block')
        for member in sorted(set(level) - present):
            errors.append(f'ARCHITECTURE.md: the rooms block names {member}, which is not in src/analysis/')
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
                    to_path = None
                    if os.path.exists(os.path.join(dirpath, target)):  # beside the file
                        to_path = os.path.normpath(os.path.join(dirpath, target))
                        to = unit_of(src, to_path)
                    elif os.path.exists(os.path.join(src, target)):
                        to_path = os.path.join(src, target)
                        to = unit_of(src, to_path)
                    elif target.split('/')[0] in rules:  # generated at build time, say
                        to = target.split('/')[0]
                    else:
                        errors.append(f'{rel}:{number}: #include "{target}" is no file under src/')
                        continue
                    if to != unit and to not in rules.get(unit, set()):
                        errors.append(f'{rel}:{number}: {unit} may not include {to} ("{target}"; '
                                      f'ARCHITECTURE.md allows {unit}: {" ".join(sorted(rules.get(unit, ()))) or "nothing"})')
                    here, there = room_member(src, path), to_path and room_member(src, to_path)
                    if here in level and there in level and level[there] > level[here]:
                        errors.append(f'{rel}:{number}: analysis/{here} may not include analysis/{there} '
                                      f'("{target}"): {there} comes after {here} in ARCHITECTURE.md\'s '
                                      f'order of analysis/\'s rooms, and a room includes only itself and '
                                      f'the rooms before it: {order}')
    for e in errors:
        print(e)
    print(f'{includes} includes checked, {len(errors)} problems')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Every relative link and #anchor in the repository's Markdown resolves.

Usage: doc_links_test.py REPO_ROOT. Reads the tracked *.md files (git ls-files, else a walk),
and fails naming file:line for a link to a missing file or to a heading that is not there.
Anchors follow GitHub's rule: lower case, punctuation dropped, spaces to '-', duplicates -1, -2.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r'\]\(([^)\s]+)(?:\s+"[^"]*")?\)')


def markdown_files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '*.md'], check=True,
                             capture_output=True, text=True).stdout.split()
        if out:
            return out
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(('.', 'build')) and x != 'node_modules']
        found += [os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith('.md')]
    return found


def slug(heading):
    text = re.sub(r'<[^>]+>', '', heading).strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)  # GitHub keeps letters, digits, '_', '-' and spaces
    return text.replace(' ', '-')


def lines_outside_fences(text):
    fenced = False
    for number, line in enumerate(text.split('\n'), 1):
        if line.lstrip().startswith('```'):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def anchors(text):
    seen = {}
    result = set()
    for _, line in lines_outside_fences(text):
        m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f'{base}-{n}')
    for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', text):
        result.add(m.group(1))
    return result


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
    cache = {}

    def anchors_of(path):
        if path not in cache:
            with open(path, encoding='utf-8') as f:
                cache[path] = anchors(f.read())
        return cache[path]

    errors = []
    files = markdown_files(root)
    for rel in files:
        path = os.path.join(root, rel)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for number, line in lines_outside_fences(text):
            for target in LINK.findall(re.sub(r'`[^`]*`', '', line)):
                if re.match(r'^[a-z][a-z0-9+.-]*:', target):  # http:, mailto: ...
                    continue
                file_part, _, anchor = target.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                where = f'{rel}:{number}'
                if not os.path.exists(dest):
                    errors.append(f'{where}: no such file: {target}')
                elif anchor and dest.endswith('.md') and anchor not in anchors_of(dest):
                    errors.append(f'{where}: no heading #{anchor} in {os.path.relpath(dest, root)}')
    for e in errors:
        print(e)
    print(f'{len(files)} Markdown files, {len(errors)} broken links')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""ctf-kernel-table.py - hold a kernel trace's metadata to doc/ctf.md's
table of kernel events ("Kernel events").

  ctf-kernel-table.py check DOC COLUMN METADATA
      For each event of the table that METADATA (TSDL text) declares,
      compare its fields (names, order, types) with the table's COLUMN
      ("module" or "tracefs"; a tracefs cell "=" means the module's).
      Prints "ok EVENT" or "not ok EVENT: what differs" per event, then
      "checked N", and exits 1 when one differs.
  ctf-kernel-table.py fields METADATA
      Prints each event of METADATA and its fields as the table writes
      them (to write a row).

A field is written NAME:TYPE, TYPE one of sN/uN (an integer of N bits,
signed or not), xN (unsigned, shown in hex), text[N] (a char array),
string, seq(T) (a sequence of T, its length field not listed), T[N] (an
array of N integers) or enum; NAME:TYPE? is a field there only where the
kernel's tracepoint has it.
"""
import re
import sys


def split_top(body):
    """The declarations of a struct body, split at ';' outside braces."""
    out, depth, cur = [], 0, []
    for ch in body:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
        if ch == ';' and depth == 0:
            out.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    return [d for d in out if d]


def integer_type(decl):
    """sN, uN or xN of an integer declaration (None if not one)."""
    m = re.search(r'integer\s*\{([^}]*)\}', decl)
    if m:
        attrs = dict(re.findall(r'(\w+)\s*=\s*(\w+)', m.group(1)))
        size = attrs.get('size', '?')
        if attrs.get('encoding', 'none').upper() == 'UTF8' and size == '8':
            return 'char'
        if attrs.get('base') == '16':
            return 'x' + size
        return ('s' if attrs.get('signed') in ('1', 'true') else 'u') + size
    m = re.match(r'u?int(\d+)_t\b', decl)
    if m:
        return ('u' if decl.startswith('u') else 's') + m.group(1)
    return None


def fields_of(body):
    """[(name, type)] of an event's fields struct body."""
    out = []
    for decl in split_top(body):
        m = re.search(r'\b_(\w+)\s*(\[\s*(\w+)\s*\])?\s*$', decl)
        if not m:
            out.append(('?', decl))
            continue
        name, length = m.group(1), m.group(3)
        if name.startswith('_') and name.endswith('_length'):
            continue        # a sequence's length: implied by seq()
        if decl.startswith('string'):
            typ = 'string'
        elif decl.startswith('enum'):
            typ = 'enum'
        else:
            typ = integer_type(decl) or '?'
        if length is not None:
            if length.startswith('_'):
                typ = 'seq(char)' if typ == 'char' else 'seq(%s)' % typ
            else:
                typ = 'text[%s]' % length if typ == 'char' else '%s[%s]' % (typ, length)
        out.append((name, typ))
    return out


def events_of(text):
    """{name: [(field, type)]} of the TSDL text."""
    events = {}
    for m in re.finditer(r'event\s*\{\s*name\s*=\s*"([^"]+)";(.*?)fields\s*:=\s*struct\s*\{',
                         text, re.S):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {'{': 1, '}': -1}.get(text[i], 0)
            i += 1
        events[m.group(1)] = fields_of(text[m.end():i - 1])
    return events


def table_of(doc):
    """{event: {"module": cell, "tracefs": cell}} of the doc's table."""
    rows, on = {}, False
    for line in open(doc, encoding='utf-8'):
        if line.startswith('## '):
            on = line.strip() == '## Kernel events'
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if not on or len(cells) != 3 or not cells[0].startswith('`'):
            continue
        rows[cells[0].strip('`')] = {'module': cells[1], 'tracefs': cells[2]}
    return rows


def written(fields):
    return ', '.join('%s:%s' % f for f in fields)


def check(doc, column, metadata):
    rows = table_of(doc)
    events = events_of(open(metadata, encoding='utf-8', errors='replace').read())
    bad = n = 0
    for name in sorted(events):
        if name not in rows:
            continue
        want = rows[name][column]
        if want == '=':
            want = rows[name]['module']
        got = written(events[name]).replace('`', '')
        want = want.replace('`', '')
        # NAME:TYPE? is there where the kernel's tracepoint has it
        every = want.replace('?', '')
        some = ', '.join(f for f in want.split(', ') if not f.endswith('?'))
        n += 1
        if got in (every, some):
            print('ok %s' % name)
        else:
            bad += 1
            print('not ok %s: metadata has "%s", the table "%s"' % (name, got, want))
    print('checked %d' % n)
    return 1 if bad or not n else 0


def main(argv):
    if len(argv) == 5 and argv[1] == 'check' and argv[3] in ('module', 'tracefs'):
        return check(argv[2], argv[3], argv[4])
    if len(argv) == 3 and argv[1] == 'fields':
        for name, fields in sorted(events_of(open(argv[2], encoding='utf-8').read()).items()):
            print('| `%s` | %s |' % (name, written(fields)))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))

# SPDX-License-Identifier: GPL-2.0-only
"""sessiond-layers.py SRCDIR BUILDDIR - hold src/sessiond against its maps.

src/sessiond/sessiond.h names the daemon's folders, from the top layer
down, each with its map header ("cmd/ (cmd.h): ..."); a folder's map
header names the folder's files in its first comment, and every header of
a folder declares its functions grouped by the file that defines them:
under a line "/* FILE.c: ..." (a header without one: its own FILE.c).
Prints one line per check, "ok DESC" or "not ok DESC" followed by "# ..."
lines that say what is wrong:
  - every .c and .h of a folder is named by its map, and every name is a file;
  - every .c and .h of src/consumerd and src/relayd is named in the first
    comment of consumerd.h and relayd.h;
  - every prototype lies under the file that defines it (nm of the
    daemon's objects in BUILDDIR, when they are built);
  - no file includes a header of a folder the map lists before its own;
  - no object calls a function defined in such a folder;
  - no two folders call each other (a circle across layers).
"""
import glob
import os
import re
import subprocess
import sys

src, build = sys.argv[1], sys.argv[2]
top = os.path.join(src, 'src', 'sessiond')
mapped = {}         # folder -> set of file names
maphdr = {}         # folder -> its map header
order = []
for line in open(os.path.join(top, 'sessiond.h')):
    m = re.match(r' \* ([a-z]+)/ \(([a-z0-9-]+\.h)\): ', line)
    if m:
        order.append(m.group(1))
        maphdr[m.group(1)] = m.group(2)
for f in order:
    mapped[f] = set()
    path = os.path.join(top, f, maphdr[f])
    if not os.path.exists(path):
        continue
    head = open(path).read().split('\n */', 1)[0]
    for m in re.finditer(r'^ \*   ([a-z][a-z0-9-]*)(\.\[ch\]|\.[ch])\s', head, re.M):
        exts = ['.c', '.h'] if m.group(2) == '.[ch]' else [m.group(2)]
        mapped[f].update(m.group(1) + e for e in exts)
rank = {f: i for i, f in enumerate(order)}


def check(desc, problems):
    print(('not ok ' if problems else 'ok ') + desc)
    for p in problems[:200]:
        print('# ' + p)


check('the map names folders (%s)' % ' '.join(order), [] if len(order) >= 5 else ['too few'])
problems = []
for f in order:
    there = {os.path.basename(p) for p in glob.glob(os.path.join(top, f, '*.[ch]'))}
    problems += ['%s/%s is not in %s' % (f, n, maphdr[f]) for n in sorted(there - mapped[f])]
    problems += ['%s names %s/%s, which does not exist' % (maphdr[f], f, n)
                 for n in sorted(mapped[f] - there)]
dirs = {d for d in os.listdir(top) if os.path.isdir(os.path.join(top, d))}
problems += ['folder %s/ is not in the map' % d for d in sorted(dirs - set(order))]
check('every file of every folder is in its map header, and only those', problems)

# The other daemons are one folder each, mapped by DAEMON.h's first comment.
problems = []
for d in ('consumerd', 'relayd'):
    head = open(os.path.join(src, 'src', d, d + '.h')).read().split('\n */', 1)[0]
    named = set()
    for m in re.finditer(r'\b([a-z][a-z0-9-]*)(\.\[ch\]|\.[ch])(?!\w)', head):
        named.update(m.group(1) + e for e in (['.c', '.h'] if m.group(2) == '.[ch]' else [m.group(2)]))
    for path in sorted(glob.glob(os.path.join(src, 'src', d, '*.[ch]'))):
        if os.path.basename(path) not in named | {d + '.h'}:
            problems.append('src/%s/%s is not in %s.h' % (d, os.path.basename(path), d))
check('every file of ltt-consumerd and ltt-relayd is in its map header', problems)

problems = []
for f in order:
    for path in sorted(glob.glob(os.path.join(top, f, '*.[ch]'))):
        for inc in re.findall(r'#include "sessiond/([a-z]+)/', open(path).read()):
            if inc in rank and rank[inc] < rank[f]:
                problems.append('%s/%s includes a header of %s/' %
                                (f, os.path.basename(path), inc))
check('no file includes a header of a layer above its own', problems)

objs = glob.glob(os.path.join(build, 'src', 'sessiond', '*', '*.o'))
if not objs:
    print('ok calls not checked # SKIP the daemon is not built in ' + build)
    print('ok prototypes not checked # SKIP')
    print('ok no circle of folders # SKIP')
    sys.exit(0)
defs, undef = {}, {}
for o in objs:
    f = os.path.basename(os.path.dirname(o))
    out = subprocess.run(['nm', o], capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDR':
            defs[p[2]] = (f, re.sub(r'^ltt_sessiond-', '', os.path.basename(o))[:-2] + '.c')
        elif len(p) == 2 and p[0] == 'U':
            undef.setdefault((f, os.path.basename(o)), set()).add(p[1])
problems = []
for f in order:
    for path in sorted(glob.glob(os.path.join(top, f, '*.h'))):
        h = os.path.basename(path)
        section = h[:-2] + '.c'
        for n, line in enumerate(open(path), 1):
            m = re.match(r'/\* ([a-z0-9-]+\.c)[: ]', line)
            if m:
                section = m.group(1)
                continue
            m = re.match(r'(?!static |typedef |extern |#)[a-z][^(;=]*?\b(\w+)\(', line)
            if not m or m.group(1) not in defs:
                continue
            where = defs[m.group(1)][1]
            if where != section:
                problems.append('%s/%s:%d: %s() is %s\'s, not under it' %
                                (f, h, n, m.group(1), where))
check('every prototype lies under the file that defines it', problems)

problems = []
calls = set()
for (f, o), syms in undef.items():
    for s in sorted(syms):
        if s not in defs or defs[s][0] == f or f not in rank:
            continue
        g = defs[s][0]
        calls.add((f, g))
        if g in rank and rank[g] < rank[f]:
            problems.append('%s (%s/) calls %s() of %s/' % (o, f, s, g))
check('no function calls one of a layer above its own', problems)
check('no circle of folders',
      ['%s/ and %s/ call each other' % (a, b) for a, b in sorted(calls) if (b, a) in calls and a < b])

# SPDX-License-Identifier: GPL-2.0-only
"""sessiond-layers.py SRCDIR BUILDDIR - hold src/sessiond against its map.

The map is src/sessiond/sessiond.h: its folders, from the top layer down,
each with the files it names.  Prints one line per check, "ok DESC" or
"not ok DESC" followed by "# ..." lines that say what is wrong:
  - every .c and .h of a folder is named by the map, and every name is a file;
  - no file includes a header of a folder the map lists before its own;
  - no object calls a function defined in such a folder (nm of the
    daemon's objects in BUILDDIR, when they are built);
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
order = []
folder = None
for line in open(os.path.join(top, 'sessiond.h')):
    m = re.match(r' \* ([a-z]+)/: ', line)
    if m:
        folder = m.group(1)
        order.append(folder)
        mapped[folder] = set()
        continue
    m = re.match(r' \*   ([a-z][a-z0-9-]*)(\.\[ch\]|\.[ch])\s', line)
    if m and folder:
        exts = ['.c', '.h'] if m.group(2) == '.[ch]' else [m.group(2)]
        mapped[folder].update(m.group(1) + e for e in exts)
rank = {f: i for i, f in enumerate(order)}


def check(desc, problems):
    print(('not ok ' if problems else 'ok ') + desc)
    for p in problems[:40]:
        print('# ' + p)


check('the map names folders (%s)' % ' '.join(order), [] if len(order) >= 5 else ['too few'])
problems = []
for f in order:
    there = {os.path.basename(p) for p in glob.glob(os.path.join(top, f, '*.[ch]'))}
    problems += ['%s/%s is not in the map' % (f, n) for n in sorted(there - mapped[f])]
    problems += ['the map names %s/%s, which does not exist' % (f, n)
                 for n in sorted(mapped[f] - there)]
dirs = {d for d in os.listdir(top) if os.path.isdir(os.path.join(top, d))}
problems += ['folder %s/ is not in the map' % d for d in sorted(dirs - set(order))]
check('every file of every folder is in the map, and only those', problems)

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
    print('ok no circle of folders # SKIP')
    sys.exit(0)
defs, undef = {}, {}
for o in objs:
    f = os.path.basename(os.path.dirname(o))
    out = subprocess.run(['nm', o], capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDR':
            defs[p[2]] = (f, os.path.basename(o))
        elif len(p) == 2 and p[0] == 'U':
            undef.setdefault((f, os.path.basename(o)), set()).add(p[1])
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

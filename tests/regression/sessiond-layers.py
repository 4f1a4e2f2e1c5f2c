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
  - every .c and .h of src/consumerd and src/relayd, their subfolders'
    too, is named in the first comment of consumerd.h and relayd.h (by
    its path below the daemon's folder: cmd/cmd.c);
  - every prototype lies under the file that defines it (nm of the
    daemon's objects in BUILDDIR, when they are built);
  - no file includes a header of a folder the map lists before its own;
  - no object calls a function defined in such a folder;
  - no two folders call each other (a circle across layers);
  - no files of one folder call each other around a circle;
  - the libraries' folders (src/ust, src/lib/ltt-ctl, src/lttng-ust), and
    ltt-consumerd's, ltt-relayd's and ltt-tracer.ko's (kmod), one layer a
    file: their map header (FLAT below) names every .c and .h in its
    first comment, from the top layer down, a file of a subfolder by its
    path (cmd/cmd.c) or the subfolder whole (probes/), tests' own folders
    aside; no file calls one listed above it (at most FLAT's limit of
    such arrows) and no files call each other in a circle (nm of the
    objects in BUILDDIR, subfolders' too, when built: a folder built has
    an object for every .c of its map);
  - src/common's wings (common.h names them from the top layer down,
    each with its map header): every file in its wing's map, no file
    includes a header of a wing above its own, no function calls one of a
    wing above its own, no two wings call each other;
  - every folder of src/ and kmod/ (tests' own folders aside), from nm
    of every object built there: no circle of its own files, and no
    circle between its subfolders (each taken whole, with what lies
    below it) and its own files (each taken alone, so a folder's table
    above its subfolder and its helpers below it are layers, not a
    circle).  No circle is excepted by name;
  - doc/sessiond.md's tree of folders is sessiond.h's, in its order, and
    doc/architecture.md names each of them;
  - a file's size follows its subject (CONTRIBUTING.md): no .c or .h
    file under src/ and kmod/ past 1,500 lines (one and a half times
    STYLE's sign to split: a file that long holds two subjects); no
    header that only joins the two halves of a split (no .c of its own,
    included by exactly two .c files of its folder, both named from its
    stem); no split named for being one (-2 to -9, -more, -rest, -part,
    -misc, -extra, -other).  Each offender is named; none is excepted by name.
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
    m = re.match(r' \* ([a-z][a-z0-9-]*)/ \(([a-z0-9-]+\.h)\): ', line)
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


_nm = {}            # object file -> nm's lines of it


def nm(objs):
    """{object: nm's lines} of @objs, read by one nm for up to 200 objects
    at once, each object once however many checks read it (the run took
    minutes with an nm for each object of each check)."""
    todo = [o for o in dict.fromkeys(objs) if o not in _nm]
    for i in range(0, len(todo), 200):
        batch = todo[i:i + 200]
        for o in batch:
            _nm[o] = []
        out = subprocess.run(['nm', '-A'] + batch, capture_output=True, text=True).stdout
        for line in out.splitlines():
            path, sep, rest = line.partition(':')
            if sep and path in _nm:
                _nm[path].append(rest)
    return {o: _nm[o] for o in objs}


def calls_between(objs):
    """{(a, b)}: a calls (or reads) a symbol only b defines, from nm of
    objs, {name: object file}."""
    defs, undef = {}, {}
    lines = nm(objs.values())
    for name, o in objs.items():
        for line in lines[o]:
            p = line.split()
            if len(p) == 3 and p[1] in 'TDRBC':
                defs.setdefault(p[2], set()).add(name)
            elif len(p) == 2 and p[0] == 'U':
                undef.setdefault(name, set()).add(p[1])
    return {(a, g) for a, syms in undef.items() for s in syms
            for g in defs.get(s, ()) if g != a and len(defs[s]) == 1}


def rings_of(calls):
    """{name: the names of its circle, itself included}, for each name of
    calls that calls itself back around a circle."""
    reach = {}
    for a, b in calls:
        reach.setdefault(a, set()).add(b)
    changed = True
    while changed:          # the transitive closure: a name reaching itself is in a circle
        changed = False
        for a in reach:
            more = set().union(*(reach.get(b, set()) for b in reach[a])) - reach[a]
            if more:
                reach[a] |= more
                changed = True
    return {a: {b for b in reach[a] if a in reach.get(b, ())} | {a}
            for a in reach if a in reach[a]}


def circles_of(calls, where, keep=lambda ring: True):
    """A line for each name of calls that calls itself back around a
    circle (one that keep(ring) is true of)."""
    return ['%s/%s calls itself back through %s' % (where, a, ', '.join(sorted(ring - {a})))
            for a, ring in sorted(rings_of(calls).items()) if keep(ring)]


def tree_circles():
    """Every folder of src/ and kmod/, from nm of every object built there
    (not tests' own: objects named tests_*, folders named tests): no circle
    of its own files; no circle between its subfolders, each whole, and
    its own files, each alone."""
    objs = {}           # 'src/ctl/commands/sessions/x.c' -> object
    for top in ('src', 'kmod'):
        for dp, dn, fn in os.walk(os.path.join(build, top)):
            dn[:] = [d for d in dn if d != 'tests']
            folder = os.path.relpath(dp, build)
            if folder.endswith('/.libs'):
                folder = folder[:-len('/.libs')]
            for n in fn:
                if not n.endswith('.o') or n.startswith('tests_') or n.endswith('.mod.o'):
                    continue
                c = re.sub(r'^(\w+_la|ltt_\w+|lttctl)-', '', n)[:-2] + '.c'
                if not os.path.exists(os.path.join(src, folder, c)):
                    continue    # the module's link of its objects, or one left from a removed file
                objs.setdefault(folder + '/' + c, os.path.join(dp, n))
    if not objs:
        print('ok no circle of files inside any folder of src/ and kmod/ # SKIP not built in ' + build)
        print('ok no circle between the folders of src/ and kmod/ # SKIP')
        return
    calls = calls_between(objs)
    inside, between = [], []
    folders = {os.path.dirname(f) for f in objs}
    for d in sorted(folders):
        own = {(a, b) for a, b in calls if os.path.dirname(a) == d == os.path.dirname(b)}
        inside += circles_of({(os.path.basename(a), os.path.basename(b)) for a, b in own}, d)

        def node(f):
            """f's node at d's level: its own file, or the subfolder it lies in."""
            rest = os.path.relpath(f, d)
            return rest if '/' not in rest else rest.split('/')[0] + '/'
        level = {(node(a), node(b)) for a, b in calls
                 if a.startswith(d + '/') and b.startswith(d + '/') and node(a) != node(b)}
        # a circle of its own files alone is said above
        between += circles_of(level, d, lambda ring: any(n.endswith('/') for n in ring))
    check('no circle of files inside any folder of src/ and kmod/ (%d objects)' % len(objs), inside)
    check('no circle between the folders of src/ and kmod/ (each subfolder whole, '
          'each of its parent\'s files alone)', between)


check('the map names folders (%s)' % ' '.join(order), [] if len(order) >= 5 else ['too few'])

# The newcomer's pages say the same: doc/sessiond.md's tree names the
# folders of sessiond.h in its order, and doc/architecture.md names each
# folder (and the map header of each folder that has one besides its
# folder's name: client/client.h).
problems = []
text = open(os.path.join(src, 'doc', 'sessiond.md')).read()
house = text.split('## The house', 1)[1].split('```', 2)[1] if '## The house' in text else ''
tree = re.findall(r'^  ([a-z][a-z0-9-]*)/ ', house, re.M)
if tree != order:
    problems.append('doc/sessiond.md\'s tree lists %s; sessiond.h: %s' % (' '.join(tree), ' '.join(order)))
arch = open(os.path.join(src, 'doc', 'architecture.md')).read()
problems += ['doc/architecture.md does not name src/sessiond/%s/' % f for f in order
             if '`%s/`' % f not in arch]
check('doc/sessiond.md and doc/architecture.md name the folders of sessiond.h', problems)
problems = []
for f in order:
    there = {os.path.basename(p) for p in glob.glob(os.path.join(top, f, '*.[ch]'))}
    problems += ['%s/%s is not in %s' % (f, n, maphdr[f]) for n in sorted(there - mapped[f])]
    problems += ['%s names %s/%s, which does not exist' % (maphdr[f], f, n)
                 for n in sorted(mapped[f] - there)]
dirs = {d for d in os.listdir(top) if os.path.isdir(os.path.join(top, d))}
problems += ['folder %s/ is not in the map' % d for d in sorted(dirs - set(order))]
check('every file of every folder is in its map header, and only those', problems)

LINES_MAX = 1500    # past this, a file holds two subjects
SPLIT_NAME = re.compile(r'[-_]([2-9]|more|rest|part[0-9]*|misc|extra|other)\.[ch]$')
problems = []
# the tree's own files (git's list where there is one: not what a build
# generated in the tree)
listed = subprocess.run(['git', '-C', src, 'ls-files', '--cached', '--others',
                         '--exclude-standard', '--', 'src', 'kmod'],
                        capture_output=True, text=True)
if listed.returncode == 0 and listed.stdout:
    sources = sorted(os.path.join(src, f) for f in listed.stdout.split('\n')
                     if f.endswith(('.c', '.h')))
else:
    sources = []
    for top_dir in ('src', 'kmod'):
        for dp, dn, fn in os.walk(os.path.join(src, top_dir)):
            dn.sort()
            sources += [os.path.join(dp, n) for n in sorted(fn) if n.endswith(('.c', '.h'))]
known = set(sources)
includers = {}      # a header's path below src -> the .c files including it
for path in sources:
    rel = os.path.relpath(path, src)
    with open(path, 'rb') as fh:
        text = fh.read().decode('utf-8', 'replace')
    lines = len(text.splitlines())
    if lines > LINES_MAX:
        problems.append('%s has %d lines (at most %d: it holds more than one subject)' %
                        (rel, lines, LINES_MAX))
    if SPLIT_NAME.search(path):
        problems.append('%s is named for being a split, not for what it holds' % rel)
    if path.endswith('.c'):
        # as the compiler looks: the includer's folder first, then -I src, kmod
        for m in re.finditer(r'^#\s*include\s+"([^"]+)"', text, re.M):
            for base in (os.path.dirname(rel), 'src', 'kmod'):
                hdr = os.path.normpath(os.path.join(base, m.group(1)))
                if os.path.join(src, hdr) in known:
                    includers.setdefault(hdr, set()).add(rel)
                    break
# A header of no .c of its own that exactly two .c files of its folder
# include, both named from its stem: the two halves of one subject.  (A
# header that three files or more share, as ringbuf-internal.h the ring
# buffer's writer, reader and repair, holds what several subjects share.)
for hdr, users in sorted(includers.items()):
    folder, name = os.path.split(hdr)
    stem = re.sub(r'-(int|internal|priv|private|shared)$', '', name[:-2])
    if (os.path.exists(os.path.join(src, folder, name[:-2] + '.c')) or len(users) != 2 or
            any(os.path.dirname(u) != folder or not os.path.basename(u).startswith(stem)
                for u in users)):
        continue
    problems.append('%s only joins the two halves of a split (%s): one subject, one file' %
                    (hdr, ' and '.join(sorted(users))))
check("each file's size follows its subject: none past %d lines, no header joining the halves "
      'of a split, no split named for being one' % LINES_MAX, problems)



def files_under(d):
    """The .c and .h files of d (below src), its subfolders' too (not
    tests' own folders), by their path below d."""
    found = []
    for dp, dn, fn in os.walk(os.path.join(src, d)):
        dn[:] = sorted(x for x in dn if x != 'tests')
        rel = os.path.relpath(dp, os.path.join(src, d))
        found += [n if rel == '.' else rel + '/' + n for n in fn if n.endswith(('.c', '.h'))]
    return sorted(found)


# The other daemons, each mapped by DAEMON.h's first comment: a file of a
# subfolder by its path below the daemon's folder.
problems = []
for d in ('consumerd', 'relayd'):
    head = open(os.path.join(src, 'src', d, d + '.h')).read().split('\n */', 1)[0]
    named = set()
    for m in re.finditer(r'(?<![\w/])([a-z][a-z0-9/-]*)(\.\[ch\]|\.[ch])(?!\w)', head):
        named.update(m.group(1) + e for e in (['.c', '.h'] if m.group(2) == '.[ch]' else [m.group(2)]))
    for f in files_under(os.path.join('src', d)):
        if f not in named | {d + '.h'}:
            problems.append('src/%s/%s is not in %s.h' % (d, f, d))
check('every file of ltt-consumerd and ltt-relayd is in its map header', problems)

# The libraries: one folder each, its files in layers, listed from the
# top down by the map header; the limit of calls up a folder may keep.
FLAT = (('src/ust', 'ust.h', 0), ('src/lib/ltt-ctl', 'ctl-internal.h', 0),
        ('src/lttng-ust', 'lttng-ust.h', 0), ('src/consumerd', 'consumerd.h', 0),
        ('src/relayd', 'relayd.h', 0), ('kmod', 'ltt-tracer.h', 1))


def flat_map(d, hdr):
    """The .c and .h files of d's map, top layer first (a subfolder's
    by its path: cmd/cmd.c), and the subfolders it names whole
    (probes/)."""
    head = open(os.path.join(src, d, hdr)).read().split('\n */', 1)[0]
    names = []
    for m in re.finditer(r'^ \*   ([a-z][a-z0-9/-]*)(\.\[ch\]|\.[ch])\s', head, re.M):
        for e in (['.c', '.h'] if m.group(2) == '.[ch]' else [m.group(2)]):
            if m.group(1) + e not in names:
                names.append(m.group(1) + e)
    whole = re.findall(r'^ \*   ([a-z][a-z0-9-]*/)\s', head, re.M)
    return names, whole


def flat_calls(d, files):
    """{(caller.c, callee.c)} between d's files (paths below d), from
    nm of its objects, its subfolders' too; and the files of @files
    that have no object (all of them where d is not built)."""
    objs = {}
    for dp, dn, fn in os.walk(os.path.join(build, d)):
        dn[:] = [x for x in dn if x != 'tests']
        rel = os.path.relpath(dp, os.path.join(build, d))
        if rel == '.libs' or rel.endswith('/.libs'):
            rel = os.path.dirname(rel) or '.'
        for o in fn:
            if not o.endswith('.o'):
                continue
            c = re.sub(r'^(\w+_la|ltt_consumerd|ltt_relayd)-', '', o)[:-2] + '.c'
            c = c if rel == '.' else rel + '/' + c
            if c in files:      # else generated, or an object left from a removed file
                objs.setdefault(c, os.path.join(dp, o))
    return calls_between(objs), set(files) - set(objs)


problems = []
for d, hdr, _ in FLAT:
    there = set(files_under(d))
    names, whole = flat_map(d, hdr)
    named = set(names)
    problems += ['%s/%s is not in %s' % (d, n, hdr) for n in sorted(there - named - {hdr})
                 if not any(n.startswith(w) for w in whole)]
    problems += ['%s names %s/%s, which does not exist' % (hdr, d, n) for n in sorted(named - there)]
    problems += ['%s names %s/%s, which does not exist' % (hdr, d, w) for w in whole
                 if not os.path.isdir(os.path.join(src, d, w))]
check('every file of the libraries, ltt-consumerd, ltt-relayd and kmod is in its map header',
      problems)
ups, circles = [], []
for d, hdr, limit in FLAT:
    names = flat_map(d, hdr)[0]
    calls, unbuilt = flat_calls(d, {n for n in names if n.endswith('.c')})
    # A folder built has an object for each of its files (found by the
    # object names automake and libtool give, subfolders' too), so that
    # no file's calls go unchecked.
    if len(unbuilt) < len([n for n in names if n.endswith('.c')]):
        ups += ['%s/%s has no object in %s: its calls are not checked' % (d, n, build)
                for n in sorted(unbuilt)]
    rank_of = {n: i for i, n in enumerate(names)}
    up = sorted('%s/%s calls %s, listed above it in %s' % (d, a, b, hdr)
                for a, b in calls if a in rank_of and b in rank_of and rank_of[b] < rank_of[a])
    if len(up) > limit:
        ups += up + ['%s: %d calls up, at most %d' % (d, len(up), limit)]
    circles += circles_of(calls, d)
if not glob.glob(os.path.join(build, 'src', 'ust', '.libs', '*.o')):
    print('ok the libraries\' calls not checked # SKIP not built in ' + build)
    print('ok the libraries\' circles not checked # SKIP')
else:
    check('no file of the libraries calls one listed above it in its map', ups)
    check('no circle of files in the libraries', circles)

problems = []
for f in order:
    for path in sorted(glob.glob(os.path.join(top, f, '*.[ch]'))):
        for inc in re.findall(r'#include "sessiond/([a-z]+)/', open(path).read()):
            if inc in rank and rank[inc] < rank[f]:
                problems.append('%s/%s includes a header of %s/' %
                                (f, os.path.basename(path), inc))
check('no file includes a header of a layer above its own', problems)

# src/common in wings: common.h names them from the top layer down, each
# with its map header ("base/ (base.h): ..."), as sessiond.h does its
# folders.  No arrow between wings is excepted.
ctop = os.path.join(src, 'src', 'common')
wings, wing_hdr, wing_files = [], {}, {}
for line in open(os.path.join(ctop, 'common.h')):
    m = re.match(r' \* ([a-z][a-z0-9-]*)/ \(([a-z0-9-]+\.h)\): ', line)
    if m:
        wings.append(m.group(1))
        wing_hdr[m.group(1)] = m.group(2)
top_files = {os.path.basename(p) for p in glob.glob(os.path.join(ctop, '*.[ch]'))}
problems = []
for w in wings:
    path = os.path.join(ctop, w, wing_hdr[w])
    there = {os.path.basename(p) for p in glob.glob(os.path.join(ctop, w, '*.[ch]'))}
    named = set()
    if os.path.exists(path):
        head = open(path).read().split('\n */', 1)[0]
        for m in re.finditer(r'^ \*   ([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*)(\.\[ch\]|\.[ch])\s', head, re.M):
            named.update(m.group(1) + e for e in (['.c', '.h'] if m.group(2) == '.[ch]' else [m.group(2)]))
    problems += ['common/%s/%s is not in %s' % (w, n, wing_hdr[w]) for n in sorted(there - named)]
    problems += ['%s names common/%s/%s, which does not exist' % (wing_hdr[w], w, n)
                 for n in sorted(named - there)]
    wing_files[w] = there
problems += ['common/%s is at src/common\'s top, in no wing' % n
             for n in sorted(top_files - {'common.h'})]
cdirs = {d for d in os.listdir(ctop) if os.path.isdir(os.path.join(ctop, d))}
problems += ['folder common/%s/ is not in common.h' % d for d in sorted(cdirs - set(wings))]
check('src/common\'s map names its wings (%s)' % ' '.join(wings),
      [] if len(wings) >= 5 else ['too few'])
check('every file of every wing of src/common is in its map header, and only those', problems)

wrank = {w: i for i, w in enumerate(wings)}
module_wing = {}        # "base/log" -> wing
for w in wings:
    for n in wing_files[w]:
        module_wing['%s/%s' % (w, n[:-2])] = w


def wing_of(mod):
    return module_wing.get(mod)


problems = []
for w in wings:
    for n in sorted(wing_files[w]):
        me = '%s/%s' % (w, n[:-2])
        for inc in re.findall(r'#include "common/([a-z0-9/-]+)\.h"', open(os.path.join(ctop, w, n)).read()):
            g = wing_of(inc)
            if g and wrank[g] < wrank[w]:
                problems.append('common/%s includes common/%s.h, of a wing above its own' % (me, inc))
check('no file of src/common includes a header of a wing above its own', problems)

cobjs = {}
for w in wings:
    for o in glob.glob(os.path.join(build, 'src', 'common', w, '.libs', '*.o')) + \
            glob.glob(os.path.join(build, 'src', 'common', w, '*.o')):
        base = re.sub(r'^lib(common|net)_la-', '', os.path.basename(o))[:-2]
        mod = '%s/%s' % (w, base)
        if wing_of(mod):
            cobjs.setdefault(mod, o)
if not cobjs:
    print('ok src/common\'s calls not checked # SKIP not built in ' + build)
    print('ok no circle of wings of src/common # SKIP')
else:
    problems, wcalls = [], set()
    for mod, callee in sorted(calls_between(cobjs)):
        a, b = wing_of(mod), wing_of(callee)
        if a == b:
            continue
        wcalls.add((a, b))
        if wrank[b] < wrank[a]:
            problems.append('common/%s.c calls common/%s.c, of %s/, a wing above its own' %
                            (mod, callee, b))
    check('no function of src/common calls one of a wing above its own', problems)
    check('no circle of wings of src/common',
          ['%s/ and %s/ call each other' % (a, b) for a, b in sorted(wcalls) if (b, a) in wcalls and a < b])

# the daemon's objects: not those a test target compiles from its sources
# (tests_fuzz_fuzz_lagentd-lagent.o defines what ltt_sessiond-lagent.o does)
objs = [o for o in glob.glob(os.path.join(build, 'src', 'sessiond', '*', '*.o'))
        if not os.path.basename(o).startswith('tests_')]
if not objs:
    print('ok calls not checked # SKIP the daemon is not built in ' + build)
    print('ok prototypes not checked # SKIP')
    print('ok no circle of folders # SKIP')
    print('ok no circle of files inside a folder # SKIP')
    tree_circles()
    sys.exit(0)
defs, undef = {}, {}
lines = nm(objs)
for o in objs:
    f = os.path.basename(os.path.dirname(o))
    for line in lines[o]:
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

# Inside a folder, no two files call each other, directly or around a
# circle: each folder's own layers (kabi's tracefs backend: its table,
# probes, instances, event probes, catalog, state dump, tracker).
problems = []
for f in order:
    fobjs = {re.sub(r'^ltt_sessiond-', '', os.path.basename(o))[:-2] + '.c': o
             for o in objs if os.path.basename(os.path.dirname(o)) == f}
    problems += circles_of(calls_between(fobjs), f)
check('no circle of files inside a folder of src/sessiond', problems)
tree_circles()

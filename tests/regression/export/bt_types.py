#!/usr/bin/env python3
# bt_types.py FILE: each ltt_test:types event of babeltrace2's text FILE as
# ltt-export's SQLite row shows it (doc/sql.md): the integers, the hex
# field in hexadecimal, strings, arrays and sequences as JSON arrays, the
# enumeration's label and value, '|' between them; sorted.
#
# babeltrace2 2.0.4's text shows an empty string as the text of the last
# non-empty one of the same field (here "beta-text" where the program
# recorded "", i % 4 == 2, with _stext_length = 0 beside it): the
# program's three text fields are the same text, so where _stext_length
# says 0 all three are "", as the trace holds them.
import re
import sys

PAT = re.compile(r'ltt_test:types: .*\{ s8 = (-?\d+), u8 = (\d+), s16 = (-?\d+), u16 = (\d+), '
                 r's32 = (-?\d+), u32 = (\d+), s64 = (-?\d+), u64 = \d+, hex = 0x([0-9A-F]+), '
                 r'f32 = [^,]*, f64 = [^,]*, str = "([^"]*)", arr = \[(.*?)\], atext = "([^"]*)", '
                 r'_seq_length = (\d+), seq = \[(.*?)\], _stext_length = (\d+), stext = "([^"]*)", '
                 r'par = \( "([A-Z]+)" : container = (\d+) \) \}$')


def json_array(text):
    return "[" + ",".join(re.findall(r'\] = (-?\d+)', text)) + "]"


rows = []
with open(sys.argv[1]) as f:
    for line in f:
        m = PAT.search(line.rstrip("\n"))
        if not m:
            continue
        g = list(m.groups())
        g[9], g[12] = json_array(g[9]), json_array(g[12])
        if g[13] == "0":
            g[8] = g[10] = g[14] = ""
        del g[13]
        rows.append("|".join(g))
for r in sorted(rows):
    print(r)

#!/usr/bin/env python3
# doc_query.py DOC TITLE: the SQL of DOC's fenced block whose first line is
# "-- TITLE" (doc/sql.md's "-- sqlite: ..." and "-- clickhouse: ..."),
# without that line; exit 1 if there is none.
import sys

title = "-- " + sys.argv[2]
lines = open(sys.argv[1]).read().split("\n")
for i, line in enumerate(lines):
    if line == "```sql" and i + 1 < len(lines) and lines[i + 1] == title:
        end = lines.index("```", i + 1)
        print("\n".join(lines[i + 2:end]))
        sys.exit(0)
sys.exit(1)

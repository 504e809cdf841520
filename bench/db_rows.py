#!/usr/bin/python3
"""Compares the content of two index databases: every table's rows as multisets, values
with their storage class (a BLOB never equals the same bytes as TEXT). Channel entry ids,
which depend on insertion order, are replaced by the entry they name; migration
timestamps are left out.

    bench/db_rows.py OURS.db THEIRS.db   -> prints "identical (N rows)" or the differing
                                            tables, exit 1 when they differ
"""
import collections
import sqlite3
import sys


def entry_keys(db):
    rows = db.execute(
        "SELECT entry_id, package_name, channel_name, operatorbundle_name, depth FROM channel_entry")
    return {r[0]: r[1:] for r in rows}


def table_rows(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    keys = entry_keys(db)
    out = {}
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    for table in tables:
        cursor = db.execute(f'SELECT * FROM "{table}"')
        columns = [d[0] for d in cursor.description]
        rows = collections.Counter()
        for row in cursor:
            values = dict(zip(columns, row))
            if table == "channel_entry":
                values["entry_id"] = keys.get(values["entry_id"])
                values["replaces"] = keys.get(values["replaces"])
            if table == "schema_migrations":
                values.pop("timestamp", None)
            rows[tuple((c, type(v).__name__, v) for c, v in values.items())] += 1
        out[table] = rows
    return out


def main():
    ours, theirs = table_rows(sys.argv[1]), table_rows(sys.argv[2])
    differing = [t for t in sorted(set(ours) | set(theirs)) if ours.get(t) != theirs.get(t)]
    if differing:
        print("DIFFERENT in " + " ".join(differing))
        return 1
    print(f"identical ({sum(sum(r.values()) for r in ours.values())} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

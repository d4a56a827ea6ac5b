#!/usr/bin/env python3
"""Tally of why the SASS launches of tests/sass_hw_blind.rs are not simulated.

Reads the summary snapshot (tests/snapshots/sass_hw_blind__sass_blind_summary.snap,
or the path given) and groups its disagreements that carry the analysis's
reason ("[not simulated: ...]") by the reason's kind and, for a value that is
not known, by the SASS instruction where that value first appeared (the
reason's "the value comes from `MNEMONIC` at 0x..." or "from a register that
`MNEMONIC` ... reads before any instruction writes it"): rows (instructions
compared) and launches.

    python3 tests/hw/sass_unknown_origins.py [SNAPSHOT] > tests/hw/sass_unknown_origins.txt
"""
import re
import sys
from collections import Counter, defaultdict

path = sys.argv[1] if len(sys.argv) > 1 else "tests/snapshots/sass_hw_blind__sass_blind_summary.snap"
ROW = re.compile(r"^(\w+)\|([^|]+)\|(0x[0-9a-f]+): .*\[not simulated: (.*?)\] — ")
rows = Counter()
launches = defaultdict(set)
per_launch = {}
for line in open(path, encoding="utf-8"):
    m = ROW.match(line)
    if not m:
        continue
    batch, launch, _, why = m.groups()
    kind = re.sub(r" \(.*", "", why)
    kind = re.sub(r"more than \d+", "more than N", kind)
    origin = ""
    o = re.search(r"the value comes from `([^`]*)`", why)
    u = re.search(r"from a register that `([^`]*)` .* reads before any instruction writes it", why)
    if o:
        origin = o.group(1)
    elif u:
        origin = u.group(1) + " (reads a register never written)"
    elif "not known" in why:
        origin = "(the guard's own instruction)"
    key = (kind, origin)
    rows[key] += 1
    launches[key].add(f"{batch}|{launch}")
    per_launch[f"{batch}|{launch}"] = why

print(f"# {path}: disagreements not simulated, by reason and origin")
print("# rows | launches | reason | where the value that is not known first appeared")
for (kind, origin), n in sorted(rows.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"{n:5} | {len(launches[(kind, origin)]):3} | {kind} | {origin}")
print()
print("# per launch: the reason")
for k in sorted(per_launch):
    print(f"{k}: {per_launch[k]}")

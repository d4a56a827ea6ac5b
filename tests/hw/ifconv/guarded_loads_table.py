"""guarded_loads_table.py SASS: per kernel of guarded_loads.cu's SASS
(nvdisasm -c), `pred` when a load instruction (LDG, LDS; for the `s_*`
kernels a store, STG) carries a predicate (ptxas predicated the guarded loads: the probes' unguarded loads
never do), `branch` otherwise (the guarded loads stand under a `BRA`), and
the kernel's loads, branches and exits in order."""
import re
import sys

cur, rows = None, {}
for line in open(sys.argv[1]):
    m = re.search(r"^\.text\.(\w+):", line.strip())
    if m:
        cur = m.group(1)
        rows[cur] = []
        continue
    if cur is None:
        continue
    m = re.search(r"(@!?U?P\w+\s+)?\b(LDG\S*|LDS\S*|STG\S*|BRA|BSSY|EXIT)\b", line)
    if m and "BRA `(.L_x_" not in line.split(";")[0][-30:] or (m and "@" in (m.group(1) or "")):
        rows[cur].append(((m.group(1) or "").strip() + " " + m.group(2)).strip())
for k in sorted(rows):
    ops = ("STG",) if k.startswith("s_") else ("LDG", "LDS")
    pred = any(x.startswith("@") and any(o in x for o in ops) for x in rows[k])
    print(f"{k:34} {'pred' if pred else 'branch':6}  {' '.join(rows[k])}")

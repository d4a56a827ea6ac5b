#!/usr/bin/env python3
"""The wavefront rules of shared-memory loads and stores by width, in Python
(the model's are `cost::shared_load_wavefronts` and `cost::shared_wavefronts`).

    python3 rules.py --check results/measured.txt      # layouts where a rule differs
    python3 rules.py --predict configs_heldout.txt     # the new rule's predictions
"""
import sys


def groups(addrs, active, nbytes, group):
    """Per group of `group` lanes, the most distinct 4-byte words in one bank."""
    total = 0
    for g in range(0, 32, group):
        words = {addrs[l] // 4 + k for l in range(g, g + group) if active[l] for k in range((nbytes + 3) // 4)}
        if words:
            per = {}
            for w in words:
                per[w % 32] = per.get(w % 32, 0) + 1
            total += max(per.values())
    return total


def shares(addrs, active, k, lo, hi):
    return all(not active[l] or not active[l ^ k] or addrs[l] == addrs[l ^ k] for l in range(lo, hi))


def old_rule(op, w, addrs, active):
    """The model before the probe: 16-byte loads in half-warps when the whole
    warp's pairs share, 8-byte loads at one address as one group."""
    g = 32 if w <= 4 else 128 // w
    if op == "ld" and any(active):
        if w == 16 and (shares(addrs, active, 1, 0, 32) or shares(addrs, active, 2, 0, 32)):
            return groups(addrs, active, w, 16)
        first = addrs[active.index(True)]
        if w == 8 and all(addrs[l] == first for l in range(32) if active[l]):
            return groups(addrs, active, w, 32)
    return groups(addrs, active, w, g)


def new_rule(op, w, addrs, active):
    """Loads of 8 and 16 bytes: each span of two groups (the warp for 8
    bytes, each half-warp for 16) whose active lanes share their address with
    their partner l ^ 1 (or each with l ^ 2) and whose words meet no bank
    conflict is one wavefront; any other span costs its groups' wavefronts.
    Stores and narrower loads: the group rule."""
    if op != "ld" or w not in (8, 16):
        return groups(addrs, active, w, 32 if w <= 4 else 128 // w)
    g = 128 // w
    total = 0
    for s in range(0, 32, 2 * g):
        act = [active[l] and s <= l < s + 2 * g for l in range(32)]
        if not any(act):
            continue
        if (shares(addrs, act, 1, s, s + 2 * g) or shares(addrs, act, 2, s, s + 2 * g)) and groups(addrs, act, w, 2 * g) == 1:
            total += 1
        else:
            total += groups(addrs, act, w, g)
    return total


def layout(fields):
    offs = list(map(int, fields))
    return [max(o, 0) for o in offs], [o >= 0 for o in offs]


def main():
    if sys.argv[1] == "--predict":
        print("# tests/hw/ldsprobe held-out predictions (new rule): variant name wavefronts")
        for l in open(sys.argv[2]):
            f = l.split()
            addrs, active = layout(f[2:])
            print(f[0], f[1], new_rule(f[0][:2], int(f[0][2:]), addrs, active))
        return
    rows = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
    bad = {"old": 0, "new": 0}
    for r in rows:
        var, name, wf = r[0], r[1], int(r[4])
        addrs, active = layout(r[6:])
        o, n = old_rule(var[:2], int(var[2:]), addrs, active), new_rule(var[:2], int(var[2:]), addrs, active)
        bad["old"] += o != wf
        bad["new"] += n != wf
        if o != wf or n != wf:
            print(f"{var:5} {name:34} measured {wf:2}  old rule {o:2}  new rule {n:2}")
    print(f"{len(rows)} layouts: old rule {len(rows) - bad['old']} agree, new rule {len(rows) - bad['new']} agree")


if __name__ == "__main__":
    main()

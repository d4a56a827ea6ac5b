#!/usr/bin/env python3
"""Turn the launch record written by triton_kernels.py (triton/triton_launches.json)
into tests/hw/triton/launches.json, in the schema of tests/hw/launches.json
(warpscope-hw-launches/1), so that tests/hw_agreement.rs and parse_ncu.py
read both the same way.

  python3 tests/hw/triton_launches.py tests/hw/triton/triton_launches.json > tests/hw/triton/launches.json

PTX parameters: Triton 3.6 passes every argument that is not a constexpr,
except integers equal to 1 (specialised into the code), in order, then two
scratch pointers (global and profile scratch; null here).  The script checks
that count against each .entry's parameter list.  Every tensor is its own
buffer; `offset_bytes` is the tensor's run-time address mod 4096, so a
buffer placed at a multiple of 4096 reproduces the measured alignment.  An
f32 scalar is given as its IEEE-754 bit pattern (`value`), with
`float_value` beside it.
"""
import json
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def entry_params(ptx):
    m = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx, re.S)
    params = re.findall(r"\.param\s+\.(\w+)(?:\s+\.ptr\s+\.global\s+\.align\s+\d+)?\s+(\w+)", m.group(2))
    return m.group(1), params


def main():
    src = json.load(open(sys.argv[1]))
    out = {"schema": "warpscope-hw-launches/1",
           "note": "Written by tests/hw/triton_launches.py from tests/hw/triton/triton_launches.json "
                   "(Triton %s, torch %s). Launches ran once each, in this order, under ncu "
                   "(tests/hw/triton_kernels.py)." % (src["triton_version"], src["torch_version"]),
           "modules": {}, "buffers": {}, "launches": []}
    for l in src["launches"]:
        ptx_path = l["ptx"]
        ptx = open(os.path.join(ROOT, ptx_path)).read()
        entry, params = entry_params(ptx)
        kept = [a for a in l["args"] if not (a["kind"] == "scalar" and a["type"] == "int" and a["value"] == 1)]
        if len(kept) + 2 != len(params):
            sys.exit("%s: %d kept arguments + 2 scratch != %d PTX parameters" % (l["id"], len(kept), len(params)))
        out["modules"][l["id"]] = {"ptx": ptx_path}
        ps = []
        for i, a in enumerate(kept):
            ty = params[i][0]
            if a["kind"] == "tensor":
                b = "%s.%s" % (l["id"], a["name"])
                n = 1
                for d in a["shape"]:
                    n *= d
                out["buffers"][b] = {"bytes": n * a["element_bytes"],
                                     "contents": "%s %s, strides %s (elements); address %s" % (
                                         a["dtype"], "x".join(map(str, a["shape"])), a["strides_elements"],
                                         a["address_hex"])}
                ps.append({"index": i, "kind": "pointer", "buffer": b, "offset_bytes": a["address_mod_4096"]})
            elif a["type"] == "float":
                bits = struct.unpack("<I", struct.pack("<f", a["value"]))[0]
                ps.append({"index": i, "kind": "scalar", "type": "f32", "value": bits, "float_value": a["value"]})
            else:
                ps.append({"index": i, "kind": "scalar", "type": "s32" if ty in ("u32", "s32", "b32") else "s64",
                           "value": a["value"]})
        for j in (0, 1):
            ps.append({"index": len(kept) + j, "kind": "scalar", "type": "u64", "value": 0,
                       "note": ("global" if j == 0 else "profile") + " scratch pointer (null)"})
        out["launches"].append({
            "id": l["id"], "order": l["order"], "module": l["id"], "kernel": entry,
            "grid": l["grid"], "block": l["block"], "dynamic_shared_bytes": l["shared_bytes"],
            "params": ps,
            "note": "%s; num_warps=%s num_stages=%s; constexprs %s" % (l["note"], l["num_warps"], l["num_stages"],
                                                                       json.dumps(l["constexprs"]))})
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compile one CUDA C++ file to PTX with NVRTC (via ctypes), like `nvcc -ptx`.

Used by scripts/build-corpus.sh for targets that the installed nvcc no longer
supports: CUDA 13 dropped sm_70 (Volta), and the CUDA 12 PyPI wheel
`nvidia-cuda-nvcc-cu12` ships only ptxas and libnvvm (no nvcc driver, no cicc),
so sm_70 PTX comes from CUDA 12's NVRTC (`nvidia-cuda-nvrtc-cu12`) instead.

NVRTC compiles only device code. Host code in the file (main(), <<<>>> launches,
cudaMalloc, <cstdio>) is not understood by NVRTC, so this script first strips
it: it keeps the preamble lines that NVRTC can handle and every function marked
__global__ / __device__ (plus file-scope __constant__/__shared__/__device__
variables, structs, templates, #defines). The PTX is still genuine NVRTC output
of the file's own kernels.

usage: nvrtc_ptx.py --lib libnvrtc.so.12 --arch compute_70 [-I dir]... [--lineinfo]
                    [--opt OPTION]... input.cu -o output.ptx
"""
import argparse
import ctypes
import re
import sys


def strip_host(src: str, inc_dirs=()) -> str:
    """Drop host-only code: includes NVRTC cannot resolve, and host functions.

    A top-level function is kept when its signature mentions __global__ or
    __device__; a top-level function without them is host code and is blanked
    out (line numbers are preserved, so -lineinfo stays right). Standard headers
    that libcu++ provides (<climits> -> <cuda/std/climits>) are rewritten; other
    host headers (<cstdio>, <vector>, cuda_runtime.h) are dropped.
    """
    import os
    lines = src.split("\n")
    kept = []
    for ln in lines:
        m = re.match(r"\s*#\s*include\s*([<\"])([^>\"]+)[>\"]", ln)
        if not m:
            kept.append(ln)
            continue
        name = m.group(2)
        if m.group(1) == '"' or name.startswith("cuda/") or any(
                os.path.exists(os.path.join(d, name)) for d in inc_dirs) and name not in (
                "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h"):
            kept.append(ln)
        elif any(os.path.exists(os.path.join(d, "cuda", "std", name)) for d in inc_dirs):
            kept.append(f"#include <cuda/std/{name}>  // [nvrtc_ptx.py] was <{name}>")
        else:
            kept.append("// [nvrtc_ptx.py: dropped host include] " + ln)
    src = "\n".join(kept)
    # Pass 2: walk top-level constructs; drop host function definitions.
    n = len(src)
    depth = 0
    stmt_start = 0
    i = 0
    while i < n:
        c = src[i]
        # skip comments / strings / char literals / preprocessor lines
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if c == "#" and depth == 0 and (i == 0 or src[src.rfind("\n", 0, i) + 1:i].strip() == ""):
            j = i
            while True:
                e = src.find("\n", j)
                if e < 0:
                    e = n
                    break
                if src[e - 1] == "\\":
                    j = e + 1
                    continue
                break
            i = e
            stmt_start = e
            continue
        if c == "{":
            if depth == 0:
                head = src[stmt_start:i]
                head_code = re.sub(r"//[^\n]*|/\*.*?\*/", "", head, flags=re.S)
                is_func = re.search(r"\)\s*(const\s*)?(noexcept\s*)?(->[^{]*)?$", head_code.strip()) is not None
                is_device = re.search(r"__global__|__device__", head_code) is not None
                # find end of this block
                d = 0
                j = i
                while j < n:
                    if src.startswith("//", j):
                        e = src.find("\n", j); j = n if e < 0 else e; continue
                    if src.startswith("/*", j):
                        e = src.find("*/", j + 2); j = n if e < 0 else e + 2; continue
                    if src[j] in "\"'":
                        q = src[j]; k = j + 1
                        while k < n and src[k] != q:
                            k += 2 if src[k] == "\\" else 1
                        j = k + 1; continue
                    if src[j] == "{":
                        d += 1
                    elif src[j] == "}":
                        d -= 1
                        if d == 0:
                            break
                    j += 1
                end = j + 1
                if is_func and not is_device and not re.search(r"\b(struct|class|namespace|union|enum)\b", head_code):
                    # host function: blank it out, keeping line count
                    blank = re.sub(r"[^\n]", " ", src[stmt_start:end])
                    src = src[:stmt_start] + blank + src[end:]
                    n = len(src)
                    i = end
                    stmt_start = end
                    continue
                if re.search(r"\bnamespace\b", head_code):
                    # descend into namespaces: treat contents as top level
                    i += 1
                    stmt_start = i
                    continue
                i = end
                stmt_start = end
                continue
        if c == "}" and depth == 0:
            # closing a namespace we descended into
            i += 1
            stmt_start = i
            continue
        if c == ";" and depth == 0:
            stmt_start = i + 1
        i += 1
    return src


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--arch", required=True)
    ap.add_argument("-I", dest="inc", action="append", default=[])
    ap.add_argument("--lineinfo", action="store_true")
    ap.add_argument("--opt", action="append", default=[])
    ap.add_argument("--keep-host", action="store_true", help="do not strip host code")
    ap.add_argument("input")
    ap.add_argument("-o", dest="output", required=True)
    a = ap.parse_args()

    lib = ctypes.CDLL(a.lib)
    src = open(a.input, encoding="utf-8", errors="replace").read()
    if not a.keep_host:
        src = strip_host(src, a.inc)
    prog = ctypes.c_void_p()
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), a.input.encode(), 0, None, None)
    if rc:
        sys.exit(f"nvrtcCreateProgram failed: {rc}")
    opts = [f"--gpu-architecture={a.arch}", "-std=c++17"]
    if a.lineinfo:
        opts.append("-lineinfo")
    opts += [f"-I{d}" for d in a.inc]
    opts += a.opt
    copts = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    rc = lib.nvrtcCompileProgram(prog, len(opts), copts)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    if size.value > 1:
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        sys.stderr.write(log.value.decode(errors="replace"))
    if rc:
        sys.exit(f"nvrtcCompileProgram failed ({rc}) for {a.input}")
    lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetPTX(prog, buf)
    with open(a.output, "wb") as f:
        f.write(buf.value)


if __name__ == "__main__":
    main()

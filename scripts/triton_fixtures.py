#!/usr/bin/env python3
"""Regenerate tests/fixtures/triton/: Triton's own cache layout for a few kernels.

Compiles the kernels of tests/fixtures/triton/{kernels.py,old/scale.py,new/scale.py}
for sm_90 without a GPU, with TRITON_CACHE_DIR pointing into the fixture folder,
then keeps what warpscope reads from a cache entry (`<name>.ptx` beside its
`<name>.json` metadata) and drops the rest (cubin, LLVM IR, TTIR/TTGIR, group files).

usage: python3 scripts/triton_fixtures.py      (needs: pip install triton==3.9.0)
The `.file` paths inside the PTX are absolute, as Triton writes them; the tests
that read the Python sources (suppressions) relocate them.
"""
import importlib.util
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "tests", "fixtures", "triton")

JOBS = [
    # (module file, cache dir, kernel, signature, constexprs, options)
    ("kernels.py", "cache", "vector_add",
     {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 1024}, {"num_warps": 4}),
    ("kernels.py", "cache", "strided_copy",
     {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "STRIDE": "constexpr", "BLOCK": "constexpr"},
     {"STRIDE": 8, "BLOCK": 256}, {"num_warps": 2}),
    ("old/scale.py", "old/cache", "scale",
     {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 512}, {"num_warps": 4}),
    ("new/scale.py", "new/cache", "scale",
     {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 512}, {"num_warps": 4}),
]


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3] + "_fx", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    for _, cache, *_ in JOBS:
        shutil.rmtree(os.path.join(FIX, cache), ignore_errors=True)
    for module, cache, name, sig, consts, opts in JOBS:
        os.environ["TRITON_CACHE_DIR"] = os.path.join(FIX, cache)
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        import triton.knobs as knobs  # Triton 3.4+: the cache dir is a knob read once
        knobs.cache.dir = os.environ["TRITON_CACHE_DIR"]
        fn = getattr(load(os.path.join(FIX, module)), name)
        src = ASTSource(fn=fn, signature=sig, constexprs=consts)
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=opts)
        print(f"triton {triton.__version__}: {name} -> {cache} (num_warps={k.metadata.num_warps}, shared={k.metadata.shared})")
    for _, cache, *_ in JOBS:
        for d, _, files in os.walk(os.path.join(FIX, cache)):
            for f in files:
                if not (f.endswith(".ptx") or (f.endswith(".json") and not f.startswith("__grp__"))):
                    os.remove(os.path.join(d, f))


if __name__ == "__main__":
    sys.exit(main())

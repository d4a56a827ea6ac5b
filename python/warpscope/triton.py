"""warpscope for Triton: analyse a compiled Triton kernel and map what it
finds to the Python lines of the kernel.

>>> import triton, warpscope.triton
>>> compiled = add_kernel[grid](x, y, out, n, BLOCK=1024)   # doctest: +SKIP
>>> result = warpscope.triton.analyze(compiled, grid=grid)  # doctest: +SKIP
>>> for f in result["findings"]:                            # doctest: +SKIP
...     print(f["python"]["line"], f["message"])

What is read from ``compiled`` (what ``kernel[grid](...)`` returns, or
``triton.compile``'s result, Triton 3.x):

- ``compiled.asm["ptx"]``: the PTX, whose ``.loc`` lines name the Python
  file and line of each instruction (``inlined_at`` chains through the
  ``@triton.jit`` helpers it calls);
- ``compiled.metadata``: ``num_warps`` gives the block (``num_warps * 32``
  threads, 1-D), ``target`` the memory model, ``shared`` the dynamic shared
  memory (reported, not modelled), ``name`` the kernel.

This module does not import Triton: any object with ``asm`` and
``metadata`` works, which is how the tests run without a GPU.
"""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Dict, Mapping, Optional, Union

from . import Dim3, Params, PtxError, _native, _request, _result

__all__ = ["analyze", "metadata_of", "ptx_of"]


def _plain(value: Any) -> Any:
    """Triton's metadata values as JSON values (GPUTarget is a dataclass)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def metadata_of(compiled: Any) -> Dict[str, Any]:
    """The kernel metadata of a compiled kernel as a dict (``name``,
    ``num_warps``, ``shared``, ``target``...). Accepts Triton's
    ``KernelMetadata`` named tuple, a dict (a cache entry's ``.json``), or any
    object with those attributes."""
    meta = getattr(compiled, "metadata", None)
    if meta is None:
        raise ValueError("not a compiled Triton kernel: it has no `metadata`")
    if hasattr(meta, "_asdict") or isinstance(meta, Mapping) or dataclasses.is_dataclass(meta):
        plain = _plain(meta)
    else:
        plain = {k: _plain(v) for k, v in vars(meta).items() if not k.startswith("_")}
    if "name" not in plain and getattr(compiled, "name", None):
        plain["name"] = compiled.name
    for key in ("name", "num_warps"):
        if key not in plain:
            raise ValueError(f"the kernel's metadata has no `{key}`")
    return plain


def ptx_of(compiled: Any) -> str:
    """The PTX text of a compiled kernel (``compiled.asm["ptx"]``)."""
    asm = getattr(compiled, "asm", None)
    if asm is None or "ptx" not in asm:
        raise ValueError("not a compiled Triton kernel for NVIDIA GPUs: it has no `asm['ptx']`")
    ptx = asm["ptx"]
    return ptx.decode("utf-8", "replace") if isinstance(ptx, (bytes, bytearray)) else str(ptx)


def _param_indices(compiled: Any) -> Dict[str, int]:
    """Triton argument names to PTX parameter indices: the arguments of
    ``compiled.src.signature`` in order, ``constexpr`` ones left out (they are
    compiled in, not passed). Empty when the compiled object does not say."""
    signature = getattr(getattr(compiled, "src", None), "signature", None)
    if not isinstance(signature, Mapping):
        return {}
    out: Dict[str, int] = {}
    for name, ty in signature.items():
        if str(ty) != "constexpr":
            out[str(name)] = len(out)
    return out


def _python_line(source: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The kernel's own line: the outermost frame of the ``.loc`` chain (an
    access inside an inlined ``@triton.jit`` helper is attributed to the
    kernel line that calls it; the helper's line stays in ``source``)."""
    frame = source
    while frame is not None and frame.get("inlined_at"):
        frame = frame["inlined_at"]
    if frame is None:
        return None
    return {"file": frame["file"], "line": frame["line"], "column": frame["column"]}


def analyze(
    compiled: Any,
    *,
    grid: Optional[Dim3] = None,
    params: Optional[Params] = None,
    block: Optional[Dim3] = None,
    lints: Optional[Mapping[str, str]] = None,
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
) -> Dict[str, Any]:
    """Analyses a compiled Triton kernel.

    :param compiled: what ``kernel[grid](...)`` or ``triton.compile`` returned.
    :param grid: the launch grid (programs), for whole-launch totals.
    :param params: scalar arguments by name (``{"n_elements": 4096}``, read
        from ``compiled.src.signature``), by PTX index (Triton's arguments in
        order with the ``tl.constexpr`` ones left out: ``n`` of ``add(x, y,
        out, n, BLOCK: tl.constexpr)`` is ``3``) or by PTX name.
    :param block: overrides the block from ``num_warps`` (rarely needed).
    :param lints: rule levels, as in :func:`warpscope.check`.
    :param config: a configuration file, or ``True`` to search for one.
    :returns: a dict with ``kernel`` (name), ``block``, ``num_warps``,
        ``shared``, ``target`` (such as ``"sm_90"``), ``analysis`` (the
        kernels and their accesses, as :func:`warpscope.analyze` returns),
        ``findings`` (the lint findings of :func:`warpscope.check`, each with
        ``python``: the kernel's file, line and column) and ``lines`` (per
        Python line of the kernel, its accesses: ``pattern``, ``sectors`` and
        ``ideal_sectors`` per request, ``instruction``).
    :raises PtxError: the PTX has errors.
    """
    meta = metadata_of(compiled)
    ptx = ptx_of(compiled)
    if params:
        indices = _param_indices(compiled)
        params = {indices.get(k, k) if isinstance(k, str) else k: v for k, v in params.items()}
    name = f"{meta['name']}.ptx"
    req = _request(block, grid, params, None, None, None, config, lints, json.dumps(meta))
    out = _result(_native.check(ptx, name, req))
    front = [d for d in out["diagnostics"] if d["code"].startswith("E")]
    for d in front:
        if d["severity"] == "error":
            raise PtxError(d, front)
    findings = []
    for d in out["diagnostics"]:
        d = dict(d)
        d["python"] = _python_line(d.get("source"))
        findings.append(d)
    lines: Dict[tuple, Dict[str, Any]] = {}
    for k in out["kernels"]:
        for a in k["accesses"]:
            where = _python_line(a.get("source"))
            if where is None:
                continue
            key = (where["file"], where["line"])
            entry = lines.setdefault(key, {"file": where["file"], "line": where["line"], "accesses": []})
            entry["accesses"].append(
                {
                    "instruction": a["instruction"],
                    "op": a["op"],
                    "space": a["space"],
                    "pattern": a["pattern"],
                    "sectors": a["per_request"]["sectors"],
                    "ideal_sectors": a["per_request"]["ideal_sectors"],
                    "l1_lines": a["per_request"]["l1_lines"],
                    "ptx_line": a["ptx"]["line"],
                }
            )
    target = meta.get("target")
    arch = target.get("arch") if isinstance(target, dict) else None
    kernel0 = out["kernels"][0] if out["kernels"] else None
    result: Dict[str, Any] = {
        "kernel": meta["name"],
        "block": kernel0["block"] if kernel0 else [int(meta["num_warps"]) * 32, 1, 1],
        "num_warps": meta["num_warps"],
        "shared": meta.get("shared"),
        "target": (f"sm_{arch}" if isinstance(arch, int) else arch),
        "analysis": {"version": out["version"], "path": out["path"], "kernels": out["kernels"]},
        "findings": findings,
        "lines": [lines[k] for k in sorted(lines)],
    }
    return result


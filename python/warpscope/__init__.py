"""warpscope: static analysis of NVIDIA PTX memory accesses, from Python.

Before a kernel runs, warpscope tells how each warp's memory accesses will be
served: coalesced, broadcast, strided or random; how many 128-byte L1 lines
and 32-byte L2 sectors each request touches against the ideal; where shared
memory conflicts on banks.

>>> import warpscope
>>> result = warpscope.analyze(ptx, block=256)            # doctest: +SKIP
>>> result["kernels"][0]["accesses"][0]["pattern"]         # doctest: +SKIP
'coalesced'

Functions:

- :func:`analyze` -- the analysis as the JSON contract, as Python objects.
- :func:`check` -- the lint findings (``warpscope check``), suppressions applied.
- :func:`report` -- the per-kernel report as text, Markdown or JSON text.
- :mod:`warpscope.triton` -- the same for a compiled Triton kernel.

Errors are exceptions: :class:`PtxError` when the PTX has errors (with the
first error's message and location), :class:`ConfigError` for an invalid
configuration file (with its location), :class:`ValueError` for bad
arguments. The ``warpscope`` command installed with the package is the same
command line as the Rust binary's.
"""
from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native

__version__: str = _native.__version__

__all__ = [
    "analyze",
    "check",
    "report",
    "WarpscopeError",
    "PtxError",
    "ConfigError",
    "Dim3",
    "Params",
]

#: A block or grid shape: ``256``, ``(32, 8)`` or ``(32, 8, 1)``.
Dim3 = Union[int, Sequence[int]]
#: Scalar kernel parameters by index (from 0) or PTX name: an int, or a float
#: for a ``.f32``/``.f64`` parameter (``{"beta": 0.0}``).
Params = Mapping[Union[int, str], Union[int, float]]


class WarpscopeError(Exception):
    """Base class of warpscope's errors.

    Attributes: ``message``, ``file``, ``line`` and ``column`` (1-based; each
    ``None`` when not known).
    """

    def __init__(
        self,
        message: str,
        file: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        where = ""
        if file is not None:
            where = file
            if line is not None:
                where += f":{line}"
                if column is not None:
                    where += f":{column}"
            where += ": "
        super().__init__(where + message)


class PtxError(WarpscopeError, ValueError):
    """The PTX has errors (syntax or names): the first error's message and
    location; ``code`` is its rule code (``E0001``...) and ``diagnostics``
    lists every front-end diagnostic."""

    def __init__(self, diagnostic: Mapping[str, Any], diagnostics: List[Dict[str, Any]]) -> None:
        self.code: str = diagnostic["code"]
        self.diagnostics = diagnostics
        super().__init__(
            f"{diagnostic['message']} [{diagnostic['code']}]",
            diagnostic["path"],
            diagnostic["line"],
            diagnostic["column"],
        )


class ConfigError(WarpscopeError, ValueError):
    """The configuration file is unreadable or invalid (location of the
    offending key or value)."""


def _dim3(name: str, value: Optional[Dim3]) -> Optional[List[int]]:
    if value is None:
        return None
    dims = [value] if isinstance(value, int) else list(value)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        raise ValueError(f"{name} must be an int or 1 to 3 ints, got {value!r}")
    if any(d < 1 or d > 0xFFFFFFFF for d in dims):
        raise ValueError(f"{name}: dimensions must be at least 1, got {value!r}")
    return dims + [1] * (3 - len(dims))


def _request(
    block: Optional[Dim3],
    grid: Optional[Dim3],
    params: Optional[Params],
    kernel: Optional[str],
    arch: Optional[str],
    pointer_align: Optional[int],
    config: Union[None, bool, str, "os.PathLike[str]"],
    lints: Optional[Mapping[str, str]],
    triton: Optional[str] = None,
) -> str:
    req: Dict[str, Any] = {"block": _dim3("block", block), "grid": _dim3("grid", grid)}
    if params:
        pairs: List[Tuple[Union[int, str], Union[int, float]]] = []
        for key, value in params.items():
            if not isinstance(key, (int, str)) or isinstance(key, bool):
                raise ValueError(f"params: key {key!r} is not an index or a name")
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ValueError(f"params[{key!r}] must be an int or a float, got {value!r}")
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"params[{key!r}] must be finite, got {value!r}")
            pairs.append((key, value))
        req["params"] = pairs
    if kernel is not None:
        req["kernel"] = kernel
    if arch is not None:
        req["arch"] = arch
    if pointer_align is not None:
        req["pointer_align"] = pointer_align
    if config is True:
        req["discover"] = True
    elif config not in (None, False):
        req["config"] = os.fspath(config)  # type: ignore[arg-type]
    if lints:
        for level in lints.values():
            if level not in ("allow", "warn", "deny"):
                raise ValueError(f"lint level must be allow, warn or deny, got {level!r}")
        req["lints"] = [[name, level] for name, level in lints.items()]
    if triton is not None:
        req["triton"] = triton
    return json.dumps(req)


def _result(text: str) -> Dict[str, Any]:
    out: Dict[str, Any] = json.loads(text)
    err = out.get("error")
    if err is not None:
        if err["kind"] == "config":
            raise ConfigError(err["message"], err["file"], err["line"], err["column"])
        raise ValueError(err["message"])
    return out


def _raise_on_errors(diagnostics: List[Dict[str, Any]]) -> None:
    for d in diagnostics:
        if d["severity"] == "error":
            raise PtxError(d, diagnostics)


def analyze(
    ptx: str,
    *,
    block: Optional[Dim3] = None,
    grid: Optional[Dim3] = None,
    params: Optional[Params] = None,
    kernel: Optional[str] = None,
    arch: Optional[str] = None,
    pointer_align: Optional[int] = None,
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
    name: str = "<string>",
) -> Dict[str, Any]:
    """Analyses PTX text and returns the analysis as the JSON contract.

    :param ptx: the PTX module's text.
    :param block: threads per block (``256`` or ``(32, 8)``); default: the
        kernel's ``.reqntid``/``.maxntid``, else a 1-D block is assumed.
    :param grid: blocks per grid; with it, whole-launch totals are derived.
    :param params: scalar kernel parameters, by index or PTX name.
    :param kernel: only kernels whose (demangled) name matches this glob.
    :param arch: memory model: ``"sm70"`` (Volta and later, the default) or ``"sm60"``.
    :param pointer_align: bytes assumed for pointer parameters (default 256).
    :param config: a ``warpscope.toml``/``pyproject.toml`` to read, ``True`` to
        search from the current directory upward, ``None`` for none.
    :param name: the file name shown in diagnostics.
    :returns: ``{"version": 1, "path", "kernels": [...], "diagnostics": [...]}``;
        each kernel has its ``accesses`` with ``pattern``, ``per_request``
        (``sectors``, ``l1_lines``, ``ideal_sectors``...), ``source`` (the
        ``.loc`` line) and more: the same objects ``warpscope check --format
        json`` prints.
    :raises PtxError: the PTX has errors.
    :raises ConfigError: the configuration file is invalid.
    :raises ValueError: an argument is invalid.
    """
    req = _request(block, grid, params, kernel, arch, pointer_align, config, None)
    out = _result(_native.analyze(ptx, name, req))
    _raise_on_errors(out["diagnostics"])
    return out


def check(
    ptx: str,
    *,
    block: Optional[Dim3] = None,
    grid: Optional[Dim3] = None,
    params: Optional[Params] = None,
    kernel: Optional[str] = None,
    arch: Optional[str] = None,
    pointer_align: Optional[int] = None,
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
    lints: Optional[Mapping[str, str]] = None,
    name: str = "<string>",
) -> List[Dict[str, Any]]:
    """Lints PTX text as ``warpscope check`` does and returns the findings.

    Takes the arguments of :func:`analyze`, and ``lints``: levels by rule
    name or code (``{"narrow-access": "deny", "warnings": "allow"}``).
    Suppression comments (``// warpscope: allow(...)``, ``# warpscope:
    allow(...)``) are honoured where the sources named by ``.loc`` can be read.

    :returns: one dict per diagnostic, sorted by position: ``code``, ``name``,
        ``severity`` (``"error"``/``"warning"``/``"note"``), ``message``,
        ``path``, ``line``, ``column``, ``end_line``, ``end_column``,
        ``notes``, ``help``, ``source`` (the ``.loc`` location or ``None``) and
        ``fingerprint`` (the one ``--baseline`` matches). Front-end errors are
        findings here, not exceptions.
    :raises ConfigError: the configuration file is invalid.
    :raises ValueError: an argument is invalid (an unknown lint...).
    """
    req = _request(block, grid, params, kernel, arch, pointer_align, config, lints)
    diagnostics: List[Dict[str, Any]] = _result(_native.check(ptx, name, req))["diagnostics"]
    return diagnostics


def report(
    ptx: str,
    *,
    format: str = "text",
    block: Optional[Dim3] = None,
    grid: Optional[Dim3] = None,
    params: Optional[Params] = None,
    kernel: Optional[str] = None,
    arch: Optional[str] = None,
    pointer_align: Optional[int] = None,
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
    name: str = "<string>",
) -> str:
    """The per-kernel memory report of ``warpscope report`` as a string.

    :param format: ``"text"`` (aligned columns), ``"markdown"`` (tables for a
        pull request or a notebook) or ``"json"``.

    The other arguments are those of :func:`analyze`.

    :raises PtxError: the PTX has errors.
    """
    if format not in ("text", "markdown", "json"):
        raise ValueError(f"format must be text, markdown or json, got {format!r}")
    req = _request(block, grid, params, kernel, arch, pointer_align, config, None)
    out = _result(_native.report(ptx, name, req, format))
    _raise_on_errors(out["diagnostics"])
    text: str = out["text"]
    return text

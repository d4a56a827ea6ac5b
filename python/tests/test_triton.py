"""warpscope.triton on what Triton 3.9 compiled (tests/fixtures/triton), through
fake `compiled` objects: Triton itself is not needed."""
from __future__ import annotations

import collections
import dataclasses
import json
import pathlib
import shutil
import types

import pytest

import warpscope
import warpscope.triton


@dataclasses.dataclass(frozen=True)
class GPUTarget:  # the shape of triton.backends.compiler.GPUTarget
    backend: str
    arch: int
    warp_size: int


class Compiled:
    """What `kernel[grid](...)` returns: `.asm` and `.metadata`."""

    def __init__(self, ptx: str, meta: dict, as_namedtuple: bool = True):
        self.asm = {"ptx": ptx, "ttir": "..."}
        if as_namedtuple:
            meta = dict(meta)
            meta["target"] = GPUTarget(**meta["target"])
            KernelMetadata = collections.namedtuple("KernelMetadata", sorted(meta))
            self.metadata = KernelMetadata(**meta)
        else:
            self.metadata = meta
        self.name = meta["name"]


def _entry(triton_dir: pathlib.Path, name: str):
    (ptx,) = (triton_dir / "cache").glob(f"*/{name}.ptx")
    return ptx.read_text(), json.loads(ptx.with_suffix(".json").read_text())


def _relocated(triton_dir: pathlib.Path, tmp_path: pathlib.Path, name: str, source: str):
    """The kernel's PTX with its `.file` pointing at a copy of kernels.py in
    tmp_path (whose text is `source`), as if compiled there."""
    ptx, meta = _entry(triton_dir, name)
    old = [l for l in ptx.splitlines() if l.strip().startswith(".file")][0].split('"')[1]
    assert old.endswith("kernels.py")
    new = tmp_path / "kernels.py"
    new.write_text(source)
    return Compiled(ptx.replace(old, str(new)), meta), str(new)


@pytest.mark.parametrize("as_namedtuple", [True, False])
def test_metadata_gives_the_block_and_target(triton_dir, as_namedtuple):
    ptx, meta = _entry(triton_dir, "vector_add")
    result = warpscope.triton.analyze(Compiled(ptx, meta, as_namedtuple))
    assert result["kernel"] == "vector_add"
    assert result["num_warps"] == 4
    assert result["block"] == [128, 1, 1]
    assert result["target"] == "sm_90"
    assert result["shared"] == 0
    k = result["analysis"]["kernels"][0]
    assert not k["block_assumed"]
    assert {(a["op"], a["space"]) for a in k["accesses"]} == {("load", "global"), ("store", "global")}
    # Accesses map to the Python lines of the kernel (kernels.py: loads on 15 and 16, the store on 17).
    assert [(l["line"], {a["op"] for a in l["accesses"]}) for l in result["lines"]] == [
        (15, {"load"}),
        (16, {"load"}),
        (17, {"store"}),
    ]


def _found(result):
    return sorted((f["code"], f["python"]["line"]) for f in result["findings"])


def test_findings_point_at_python_lines_and_suppressions_apply(triton_dir, tmp_path):
    source = (triton_dir / "kernels.py").read_text()
    # The same file without its two comments (line numbers kept).
    bare = source.replace("    # warpscope: allow(uncoalesced-access)\n", "\n").replace(
        "  # warpscope: allow(uncoalesced-access)", ""
    )
    assert "warpscope:" not in bare and bare.count("\n") == source.count("\n")
    compiled, path = _relocated(triton_dir, tmp_path, "strided_copy", bare)
    plain = warpscope.triton.analyze(compiled)
    assert all(f["python"]["file"] == path for f in plain["findings"])
    assert all(f["python"]["line"] in (25, 27) for f in plain["findings"]), _found(plain)
    # kernels.py allows uncoalesced-access on the load (comment on line 25)
    # and the store (comment alone on line 26, above it): each W101 there
    # goes, and a comment that had none to allow is reported unused (W190)
    # at its own line. Which of the two happens depends on how precisely
    # the analysis resolves Triton's addresses; the relation holds for both.
    compiled, _ = _relocated(triton_dir, tmp_path, "strided_copy", source)
    allowed = warpscope.triton.analyze(compiled)
    expected = [f for f in _found(plain) if f[0] != "W101"]
    for comment_line, covered in ((25, 25), (26, 27)):
        if ("W101", covered) not in _found(plain):
            expected.append(("W190", comment_line))
    assert _found(allowed) == sorted(expected)


def test_unused_suppressions_are_reported(triton_dir, tmp_path):
    source = (triton_dir / "kernels.py").read_text()
    compiled, _ = _relocated(triton_dir, tmp_path, "vector_add", source)
    before = _found(warpscope.triton.analyze(compiled))
    commented = source.replace(
        "    x = tl.load(x_ptr + offs, mask=mask)\n",
        "    x = tl.load(x_ptr + offs, mask=mask)  # warpscope: allow(narrow-access, bogus-rule)\n",
    )
    compiled, _ = _relocated(triton_dir, tmp_path, "vector_add", commented)
    result = warpscope.triton.analyze(compiled)
    after = _found(result)
    if ("W103", 15) in before:
        assert ("W190", 15) in after and after.count(("W190", 15)) == 1
    else:
        assert after.count(("W190", 15)) == 2
    messages = [f["message"] for f in result["findings"] if f["code"] == "W190"]
    assert "unused suppression: `bogus-rule` is not a rule" in messages
    quiet = warpscope.triton.analyze(compiled, lints={"unused-suppression": "allow"})
    assert all(f["code"] != "W190" for f in quiet["findings"])


def test_grid_gives_totals(triton_dir):
    ptx, meta = _entry(triton_dir, "vector_add")
    # Parameters by PTX index: Triton's arguments in order, constexprs left out (n is the 4th).
    k = warpscope.triton.analyze(Compiled(ptx, meta), grid=8, params={3: 8192})["analysis"]["kernels"][0]
    assert k["grid"] == [8, 1, 1]
    assert k["totals_unavailable"] is None
    # 8 programs x 1024 elements = n: x and y loaded, out stored, 4 bytes each.
    assert k["totals"]["bytes_requested"] == 3 * 8192 * 4
    # By Triton's argument name, through the signature `triton.compile` keeps.
    compiled = Compiled(ptx, meta)
    compiled.src = types.SimpleNamespace(
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
    )
    by_name = warpscope.triton.analyze(compiled, grid=8, params={"n": 8192})["analysis"]["kernels"][0]
    assert by_name["totals"] == k["totals"]


def test_not_a_compiled_kernel():
    with pytest.raises(ValueError, match="metadata"):
        warpscope.triton.analyze(object())

    class NoPtx:
        asm = {"amdgcn": ""}
        metadata = {"name": "k", "num_warps": 4}

    with pytest.raises(ValueError, match="ptx"):
        warpscope.triton.analyze(NoPtx())

    class Amd:
        asm = {"ptx": ""}
        metadata = {"name": "k", "num_warps": 4, "target": {"backend": "hip", "arch": "gfx942", "warp_size": 64}}

    with pytest.raises(ValueError, match="hip"):
        warpscope.triton.analyze(Amd())


def test_cli_check_of_the_cache_folder(triton_dir):
    import subprocess

    exe = shutil.which("warpscope")
    out = subprocess.run([exe, "check", "--no-config", "--format", "json", str(triton_dir / "cache")], capture_output=True, text=True)
    files = json.loads(out.stdout)["files"]
    blocks = sorted((k["name"], k["block"]) for f in files for k in f["kernels"])
    assert blocks == [("strided_copy", [64, 1, 1]), ("vector_add", [128, 1, 1])]

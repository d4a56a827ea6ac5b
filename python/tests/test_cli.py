"""The `warpscope` console script installed with the package."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

import warpscope


def _cmd() -> list:
    exe = shutil.which("warpscope")
    assert exe is not None, "the package installs a `warpscope` command"
    return [exe]


def test_version_matches_the_module():
    out = subprocess.run(_cmd() + ["--version"], capture_output=True, text=True)
    assert out.returncode == 0
    assert out.stdout.strip() == f"warpscope {warpscope.__version__}"


def test_check_exit_codes(tmp_path, strided_ptx):
    p = tmp_path / "k.ptx"
    p.write_text(strided_ptx)
    ok = subprocess.run(_cmd() + ["check", "--no-config", "--format", "concise", str(p)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "[W101]" in ok.stdout
    denied = subprocess.run(_cmd() + ["check", "--no-config", "-D", "warnings", str(p)], capture_output=True, text=True)
    assert denied.returncode == 1
    usage = subprocess.run(_cmd() + ["check"], capture_output=True, text=True)
    assert usage.returncode == 2
    assert "PATH" in usage.stderr


def test_report_json_through_the_command(tmp_path, strided_ptx):
    p = tmp_path / "k.ptx"
    p.write_text(strided_ptx)
    out = subprocess.run(_cmd() + ["report", "--no-config", "--format", "json", "--block", "64", str(p)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["files"][0]["kernels"][0]["launch"]["block"] == [64, 1, 1]


def test_module_entry_point_runs_the_same_command():
    out = subprocess.run([sys.executable, "-m", "warpscope._cli", "rules"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "uncoalesced-access" in out.stdout
    assert "unused-suppression" in out.stdout


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_diff_exit_code_and_formats(repo, fmt):
    fixtures = repo / "tests" / "fixtures" / "diff"
    out = subprocess.run(
        _cmd() + ["diff", "--no-config", "--format", fmt, str(fixtures / "old"), str(fixtures / "new")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1, out.stdout + out.stderr
    if fmt == "json":
        (change,) = json.loads(out.stdout)["changes"]
        assert (change["verdict"], change["location"]) == ("worse", "render.cu:4")
        assert (change["old"]["sectors"], change["new"]["sectors"]) == (4.0, 32.0)
    elif fmt == "markdown":
        assert "| 🔴 worse |" in out.stdout

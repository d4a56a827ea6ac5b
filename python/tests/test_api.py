"""warpscope.analyze / check / report and their errors."""
from __future__ import annotations

import pytest

import warpscope


def test_analyze_returns_the_json_contract(strided_ptx):
    out = warpscope.analyze(strided_ptx, block=256, grid=4)
    assert out["version"] == 1
    (k,) = out["kernels"]
    assert k["name"] == "k"
    assert k["block"] == [256, 1, 1]
    assert k["grid"] == [4, 1, 1]
    load, store = k["accesses"]
    # 32 lanes x 4 contiguous bytes = 128 bytes: 4 sectors, 1 line.
    assert (load["op"], load["pattern"]) == ("load", "coalesced")
    assert load["per_request"]["sectors"] == 4.0
    assert load["per_request"]["l1_lines"] == 1.0
    # Lanes 128 bytes apart: one sector and one line each, 32 per request.
    assert (store["op"], store["pattern"]) == ("store", "strided")
    assert store["stride_bytes"] == 128
    assert store["per_request"]["sectors"] == 32.0
    assert store["per_request"]["ideal_sectors"] == 4.0
    # 4 blocks x 8 warps = 32 requests per instruction.
    assert load["requests"] == 32
    assert out["diagnostics"] == []


def test_block_shapes_and_params_are_checked(strided_ptx):
    assert warpscope.analyze(strided_ptx, block=(32, 8))["kernels"][0]["block"] == [32, 8, 1]
    for bad in (0, (1, 2, 3, 4), "256", (1.5,)):
        with pytest.raises(ValueError):
            warpscope.analyze(strided_ptx, block=bad)
    with pytest.raises(ValueError):
        warpscope.analyze(strided_ptx, params={0: "x"})
    with pytest.raises(ValueError, match="finite"):
        warpscope.analyze(strided_ptx, params={0: float("nan")})
    # A float for an integer parameter is not used, and the kernel says so.
    caveats = warpscope.analyze(strided_ptx, params={1: 0.5})["kernels"][0]["caveats"]
    assert any("ignored" in c for c in caveats), caveats
    with pytest.raises(ValueError, match="unknown architecture"):
        warpscope.analyze(strided_ptx, arch="sm_5")
    with pytest.raises(ValueError, match="power of two"):
        warpscope.analyze(strided_ptx, pointer_align=3)


def test_kernel_filter(strided_ptx):
    assert warpscope.analyze(strided_ptx, kernel="nope*")["kernels"] == []
    with pytest.raises(ValueError, match="kernel glob"):
        warpscope.analyze(strided_ptx, kernel="[")


def test_ptx_errors_raise_with_location():
    with pytest.raises(warpscope.PtxError) as e:
        warpscope.analyze(".version 8.0\n.target sm_90\n\nbogus stuff;\n", name="bad.ptx")
    err = e.value
    assert (err.file, err.line) == ("bad.ptx", 4)
    assert err.column == 1
    assert err.code.startswith("E")
    assert str(err).startswith("bad.ptx:4:1: ")
    assert isinstance(err, ValueError)
    with pytest.raises(warpscope.PtxError):
        warpscope.report("bogus;\n")


def test_check_finds_the_strided_store(strided_ptx):
    findings = warpscope.check(strided_ptx, block=256, name="k.ptx")
    codes = [f["code"] for f in findings]
    assert "W101" in codes
    f = findings[codes.index("W101")]
    assert f["name"] == "uncoalesced-access"
    assert f["severity"] == "warning"
    assert f["path"] == "k.ptx"
    store_line = [i for i, l in enumerate(strided_ptx.splitlines(), 1) if "st.global" in l]
    assert [f["line"]] == store_line
    assert len(f["fingerprint"]) == 16
    assert f["source"] is None
    # Levels as on the command line.
    assert all(f["code"] != "W101" for f in warpscope.check(strided_ptx, lints={"uncoalesced-access": "allow"}))
    denied = warpscope.check(strided_ptx, lints={"warnings": "deny"})
    assert {f["severity"] for f in denied} == {"error"}
    with pytest.raises(ValueError, match="unknown lint"):
        warpscope.check(strided_ptx, lints={"no-such-lint": "deny"})
    with pytest.raises(ValueError):
        warpscope.check(strided_ptx, lints={"uncoalesced-access": "error"})


def test_check_reports_front_end_errors_as_findings():
    findings = warpscope.check("bogus;\n")
    assert findings and findings[0]["severity"] == "error"
    assert findings[0]["code"].startswith("E")


def test_report_formats(strided_ptx):
    text = warpscope.report(strided_ptx, block=256, name="k.ptx")
    assert text.startswith("warpscope report: k.ptx\n")
    assert "strided" in text
    md = warpscope.report(strided_ptx, format="markdown", name="k.ptx")
    assert "|" in md and "`k`" in md
    import json

    js = json.loads(warpscope.report(strided_ptx, format="json", name="k.ptx"))
    assert js["files"][0]["path"] == "k.ptx"
    with pytest.raises(ValueError):
        warpscope.report(strided_ptx, format="html")


def test_configuration_file_is_applied_and_errors_located(tmp_path, strided_ptx, monkeypatch):
    cfg = tmp_path / "warpscope.toml"
    cfg.write_text("[launch]\nblock = [128]\n")
    assert warpscope.analyze(strided_ptx, config=cfg)["kernels"][0]["block"] == [128, 1, 1]
    # Searched from the current directory with config=True; keyword arguments win.
    monkeypatch.chdir(tmp_path)
    assert warpscope.analyze(strided_ptx, config=True)["kernels"][0]["block"] == [128, 1, 1]
    assert warpscope.analyze(strided_ptx, config=True, block=64)["kernels"][0]["block"] == [64, 1, 1]
    cfg.write_text("arch = \"sm90\"\n[launch]\nblok = [128]\n")
    with pytest.raises(warpscope.ConfigError) as e:
        warpscope.analyze(strided_ptx, config=cfg)
    assert (e.value.line, e.value.column) == (3, 1)
    assert e.value.file == str(cfg)
    assert "unknown field `blok`" in e.value.message

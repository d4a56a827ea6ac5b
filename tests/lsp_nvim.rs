//! A real editor: headless Neovim attaches `warpscope lsp` to a `.ptx` file
//! (`tests/nvim/init.lua`), waits for the diagnostics, asks for a hover, and
//! writes what it received to a JSON file that this test checks.
//!
//! Needs `nvim` on PATH (Debian/Ubuntu package `neovim`, 0.7 or later). When
//! it is absent the test says so and passes without checking anything; CI
//! (`.ci/run`) installs it so that there it always runs.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = include_str!("nvim/fixtures/saxpy_strided.ptx");

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-nvim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs Neovim on `file`, hovering at (line, col), and returns what it wrote.
fn run_nvim(file: &Path, hover: Option<(usize, usize)>) -> Value {
    let out = file.with_extension("json");
    let init = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim/init.lua");
    let mut cmd = Command::new("nvim");
    cmd.arg("--headless")
        .arg("-n")
        .arg("-i")
        .arg("NONE")
        .arg("-u")
        .arg(&init)
        .arg(file)
        .env("WARPSCOPE_BIN", env!("CARGO_BIN_EXE_warpscope"))
        .env("WARPSCOPE_OUT", &out)
        .env("XDG_STATE_HOME", file.parent().unwrap())
        .env("XDG_DATA_HOME", file.parent().unwrap())
        .current_dir(file.parent().unwrap());
    if let Some((l, c)) = hover {
        cmd.env("WARPSCOPE_HOVER_LINE", l.to_string())
            .env("WARPSCOPE_HOVER_COL", c.to_string());
    }
    let o = cmd.output().expect("run nvim");
    assert!(
        o.status.success(),
        "nvim failed: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("nvim wrote no {}: {e}", out.display()));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert!(v.get("error").is_none(), "init.lua failed: {v}");
    assert_eq!(v["received"], true, "Neovim received no diagnostics: {v}");
    v
}

fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].matches('\n').count()
}

#[test]
fn neovim_receives_syntax_diagnostics() {
    if !nvim_available() {
        eprintln!("SKIPPED neovim_receives_syntax_diagnostics: `nvim` is not on PATH (apt-get install neovim)");
        return;
    }
    let dir = scratch_dir("syntax");
    let file = dir.join("broken.ptx");
    let text = FIXTURE.replace("\tret;\n", "\tret;\n\tbogus !!! ;\n");
    std::fs::write(&file, &text).unwrap();
    let v = run_nvim(&file, None);
    let diags = v["diagnostics"].as_array().unwrap();
    let bad = line_of(&text, "bogus");
    assert!(
        diags.iter().any(|d| d["code"] == "E0001"
            && d["lnum"] == bad
            && d["severity"] == 1
            && d["source"] == "warpscope"),
        "expected E0001 (error) on line {bad}: {v}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn neovim_receives_lints_with_configured_levels_and_hover() {
    if !nvim_available() {
        eprintln!("SKIPPED neovim_receives_lints_with_configured_levels_and_hover: `nvim` is not on PATH (apt-get install neovim)");
        return;
    }
    let dir = scratch_dir("lints");
    // The configuration `check` would use for this directory: W101 denied.
    std::fs::write(
        dir.join("warpscope.toml"),
        "[lints]\nuncoalesced-access = \"deny\"\n",
    )
    .unwrap();
    let file = dir.join("saxpy_strided.ptx");
    std::fs::write(&file, FIXTURE).unwrap();
    let st = line_of(FIXTURE, "st.global.f32");
    let v = run_nvim(&file, Some((st, 2)));
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{v}");
    let d = &diags[0];
    assert_eq!(d["code"], "W101", "{v}");
    assert_eq!(d["lnum"], st, "{v}");
    assert_eq!(d["col"], 1, "after the tab");
    assert_eq!(d["severity"], 1, "denied in warpscope.toml: an error");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("uncoalesced store: lanes 128 bytes apart"),
        "{v}"
    );
    let hover = v["hover"]
        .as_str()
        .unwrap_or_else(|| panic!("no hover: {v}"));
    assert!(
        hover.contains("| pattern | **strided** (stride 128 B) |"),
        "{hover}"
    );
    assert!(
        hover.contains("| sectors / request | 32 (ideal 4) |"),
        "{hover}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

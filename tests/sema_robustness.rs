//! Damaged PTX never makes name resolution or CFG construction panic or
//! hang: every hand-written corpus file and CFG fixture is truncated at many
//! points, has lines deleted, and has lines duplicated (which makes duplicate
//! labels and declarations), and each variant goes through parse, sema and
//! `Cfg::build` for every function.

use std::path::Path;
use warpscope::cfg::Cfg;

fn variants(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Truncations at 23 points (on char boundaries).
    for i in 1..24 {
        let mut cut = text.len() * i / 24;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push(text[..cut].to_string());
    }
    let lines: Vec<&str> = text.lines().collect();
    // Every line deleted in turn would be slow on large files; delete every
    // k-th line for several k and offsets.
    for k in [2, 3, 5, 7] {
        for off in 0..k.min(3) {
            out.push(
                lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % k != off)
                    .map(|(_, l)| *l)
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
        }
    }
    // Duplicate every k-th line (labels, declarations, braces).
    for k in [3, 4] {
        let mut s = String::new();
        for (i, l) in lines.iter().enumerate() {
            s.push_str(l);
            s.push('\n');
            if i % k == 0 {
                s.push_str(l);
                s.push('\n');
            }
        }
        out.push(s);
    }
    // Braces removed or doubled.
    out.push(text.replace('}', ""));
    out.push(text.replace('{', "{{"));
    out
}

#[test]
fn damaged_ptx_never_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/corpus/handwritten", "tests/fixtures/sema"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "ptx") {
                files.push(e.path());
            }
        }
    }
    files.sort();
    assert!(files.len() > 20);
    let mut checked = 0;
    let mut seen = std::collections::BTreeSet::new();
    for path in files {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        for v in variants(&text) {
            let (module, _) = warpscope::syntax::parse(&v);
            let (syms, diags) = warpscope::sema::check_module(&module);
            for d in &diags {
                seen.insert(d.code);
            }
            for id in module.function_ids() {
                let f = module.function(id);
                let cfg = Cfg::build(&warpscope::lower::ptx::lower_standalone(f));
                assert_eq!(cfg.graph.node_count(), cfg.blocks().len());
                let _ = syms.function(id).resolutions().len();
            }
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
    // The damage reaches name resolution: every semantic code shows up.
    for code in ["E0101", "E0102", "E0103", "E0104", "E0105"] {
        assert!(seen.contains(code), "{code} never reported: {seen:?}");
    }
}

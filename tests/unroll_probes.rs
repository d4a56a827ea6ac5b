//! `analysis::unroll::loops` against what ptxas did to the probes of
//! `tests/hw/unroll_probes`: `probes.ptx` is `probes.cu` compiled by nvcc
//! 13.5 for sm_90a (`regen.sh`), `table.txt` counts each body statement's
//! memory instructions in that PTX and in ptxas's SASS (`j:PTX->SASS`).
//! A kernel is unrolled by ptxas when some statement has more SASS copies
//! than PTX ones; the model must say the same of every probe but the known
//! misses its module documents.

use std::collections::BTreeMap;
use warpscope::analysis::unroll;

/// Probes where the rule and ptxas differ, with the reason (the module's
/// `# Soundness and limits`).
const KNOWN: [(&str, &str); 6] = [
    (
        "le_u32",
        "unsigned j <= hi: ptxas unrolls it (8 copies, one more for the wrap); unsigned compares are not modelled",
    ),
    (
        "c1000",
        "NVVM's body's back edge is an unsigned setp.lt.u32 against a constant: ptxas unrolls it again (33 copies); unsigned compares are not modelled",
    ),
    (
        "c1000_4",
        "NVVM's body of 16 loads (over MAX_MEM) with an unsigned back edge: ptxas gives the statement 24 copies of its 20 PTX loads, not the ladder",
    ),
    (
        "lt_shared",
        "NVVM's body recomputes its shared addresses from the counter each trip: unrolled again by ptxas, where the pointer criterion says not",
    ),
    (
        "lt_vg2",
        "NVVM's body, 8 stores through stepped pointers: within the rule, not unrolled again",
    ),
    (
        "lt_shfl",
        "a shfl.sync in NVVM's body: ptxas adds 3 copies (5->8), not the 4x ladder; the rule keeps it rolled",
    ),
];

fn probes_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hw/unroll_probes")
}

/// Per kernel of `table.txt`: does ptxas's SASS hold more copies of some
/// statement than the PTX?
fn ptxas_unrolled() -> BTreeMap<String, bool> {
    let table = std::fs::read_to_string(probes_dir().join("table.txt")).expect("table.txt");
    let mut out = BTreeMap::new();
    for line in table.lines().skip(1) {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { continue };
        let more = words.filter_map(|w| w.split_once(':')).any(|(_, c)| {
            let (ptx, sass) = c.split_once("->").expect("PTX->SASS");
            sass.parse::<u32>().expect("SASS count") > ptx.parse::<u32>().expect("PTX count")
        });
        out.insert(name.to_string(), more);
    }
    out
}

#[test]
fn the_rule_says_what_ptxas_did_to_the_probes() {
    let ptx = std::fs::read_to_string(probes_dir().join("probes.ptx")).expect("probes.ptx");
    let want = ptxas_unrolled();
    let funcs = warpscope::pipeline::lower_text(&ptx);
    assert_eq!(funcs.len(), want.len(), "one kernel per row of table.txt");
    let mut wrong = Vec::new();
    let mut known_seen = Vec::new();
    for f in &funcs {
        let ptxas = *want
            .get(f.name)
            .unwrap_or_else(|| panic!("{} is not in table.txt", f.name));
        let model = !unroll::loops(f).is_empty();
        let known = KNOWN.iter().any(|(k, _)| *k == f.name);
        if known {
            known_seen.push(f.name);
            assert_ne!(
                model, ptxas,
                "{} is listed as a miss but now agrees",
                f.name
            );
        } else if model != ptxas {
            wrong.push(format!("{}: model {model}, ptxas {ptxas}", f.name));
        }
    }
    assert!(
        wrong.is_empty(),
        "the rule and ptxas differ:\n{}",
        wrong.join("\n")
    );
    assert_eq!(known_seen.len(), KNOWN.len(), "every known miss is a probe");
    // The probes hold both outcomes.
    assert!(want.values().any(|&u| u) && want.values().any(|&u| !u));
}

/// SASS is ptxas's own code: none of its loops is unrolled again.
#[test]
fn sass_listings_have_no_loops_to_unroll() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sass");
    let mut back_edges = 0;
    for entry in std::fs::read_dir(dir).expect("tests/sass") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "sass") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let (listing, _) = warpscope::sass::parse(&text);
        for f in listing
            .functions
            .iter()
            .filter(|f| !f.instructions.is_empty())
        {
            let ir = warpscope::lower::sass::lower(f);
            assert_eq!(ir.front_end, warpscope::ir::FrontEnd::Sass);
            back_edges += ir
                .ops
                .iter()
                .enumerate()
                .filter(|(i, op)| {
                    matches!(&op.kind, warpscope::ir::OpKind::Branch { target: Some(t), .. }
                        if (t.0 as usize) < *i)
                })
                .count();
            assert!(
                unroll::loops(&ir).is_empty(),
                "{}: {}",
                path.display(),
                f.name.text
            );
        }
    }
    // The listings hold loops, so the check can fail.
    assert!(back_edges > 0);
}

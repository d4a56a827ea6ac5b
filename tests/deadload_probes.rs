//! What ptxas does with loads whose results are unused (`memops::load_use`:
//! deleted, or a vector narrowed to the aligned part holding its used
//! elements), against ptxas's SASS of the probes of
//! `tests/hw/deadload/probes.py` (`probes.ptx`; `probes.txt`, the load
//! instructions ptxas 13.5 emits for each kernel for sm_90a, written by
//! `regen.sh`). Per kernel, the widths of the loads the model issues must
//! be those of the SASS, but for the known misses below.

use std::collections::BTreeMap;
use warpscope::analysis::memops::{self, LoadUse};
use warpscope::analysis::model::AccessOp;
use warpscope::ir::{MemKind, OpKind};

/// Probes where the model and ptxas differ, with the reason.
const KNOWN: [(&str, &str); 13] = [
    ("cse_unguarded", CSE),
    ("cse_negpred", CSE),
    ("cse_st_glob_same_between", CSE),
    ("cse_dup_later_unguarded", CSE),
    ("cse_dup_first_unguarded", CSE),
    ("v4_xw", TWO),
    ("v4_b32_xz", TWO),
    ("v4_b32_xw", TWO),
    ("v4_b32_yz", TWO),
    ("v4_b32_yw", TWO),
    ("g_v4_xz", TWO),
    (
        "v4_sink",
        "`{%r40, _, _, %r43}`: the lowering keeps no place for a sink, so the used element's position is unknown and the vector is kept",
    ),
    (
        "overwritten",
        "the load's register is written again before its one use: liveness is per register, not per value, so the load is kept",
    ),
];

const CSE: &str = "identical loads: ptxas issues one (an unguarded pair, `@p`/`@!p` of one address, a load after a store to its address); the model merges identical loads of shared memory only (`merge`, reuse)";
const TWO: &str = "two used 32-bit elements in different halves of a .v4: ptxas issues two scalar loads, the model keeps the vector load";

/// Bits a lane of a SASS load (`LDG.E.U8` → 8, `LDS.128` → 128, `LDG.E` → 32).
fn sass_bits(ins: &str) -> u32 {
    let op = ins
        .split_whitespace()
        .find(|w| w.starts_with("LD"))
        .expect("a load opcode");
    let parts: Vec<&str> = op.split('.').collect();
    for p in &parts {
        match *p {
            "U8" | "S8" => return 8,
            "U16" | "S16" => return 16,
            "64" => return 64,
            "128" => return 128,
            _ => {}
        }
    }
    32
}

#[test]
fn unused_load_results_are_deleted_or_narrowed_as_ptxas_does() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hw/deadload");
    let table = std::fs::read_to_string(format!("{dir}/probes.txt")).expect("table");
    let want: BTreeMap<String, Vec<u32>> = table
        .lines()
        .skip(1)
        .map(|l| {
            let mut cols = l.split('\t');
            let name = cols.next().expect("name").to_string();
            let _count = cols.next();
            let mut bits: Vec<u32> = cols
                .next()
                .unwrap_or("")
                .split(" | ")
                .filter(|s| !s.trim().is_empty())
                .map(sass_bits)
                .collect();
            bits.sort_unstable();
            (name, bits)
        })
        .collect();
    let ptx = std::fs::read_to_string(format!("{dir}/probes.ptx")).expect("ptx");
    let funcs = warpscope::pipeline::lower_text(&ptx);
    assert_eq!(funcs.len(), want.len(), "one kernel per row");
    let mut wrong = Vec::new();
    let mut known_seen = Vec::new();
    let (mut dead, mut narrowed) = (0, 0);
    for f in &funcs {
        let mut bits: Vec<u32> = Vec::new();
        for (i, op) in f.ops.iter().enumerate() {
            let OpKind::Mem { info, .. } = &op.kind else {
                continue;
            };
            if info.op != AccessOp::Load || info.kind != MemKind::Plain {
                continue;
            }
            match memops::load_use(f, i) {
                LoadUse::Dead => dead += 1,
                LoadUse::Narrowed {
                    elem_bits, vector, ..
                } => {
                    narrowed += 1;
                    bits.push(elem_bits * vector);
                }
                LoadUse::Kept => bits.push(info.bits),
            }
        }
        bits.sort_unstable();
        let ptxas = &want[f.name];
        let known = KNOWN.iter().any(|(k, _)| *k == f.name);
        if known {
            known_seen.push(f.name);
            assert_ne!(&bits, ptxas, "{}: a known miss that now agrees", f.name);
        } else if &bits != ptxas {
            wrong.push(format!("{}: ptxas {ptxas:?}, model {bits:?}", f.name));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} probes differ:\n{}",
        wrong.len(),
        funcs.len(),
        wrong.join("\n")
    );
    assert_eq!(known_seen.len(), KNOWN.len(), "every known miss is a probe");
    // Both rules were exercised.
    assert!(
        dead >= 20 && narrowed >= 20,
        "dead {dead}, narrowed {narrowed}"
    );
}

//! No input makes the analysis panic or hang: every PTX file of the corpus and
//! of the examples, with and without launch facts, and mangled versions of
//! them (truncated at many points, lines shuffled, bytes flipped) are analysed
//! to completion. Also checks a few invariants of every result.

use warpscope::analysis::{Analysis, LaunchConfig, Options, ParamKey};
use warpscope::analyze;
use warpscope::source::SourceFile;

mod common;

/// The committed corpus, the examples and the analysis fixtures.
fn corpus_files() -> Vec<std::path::PathBuf> {
    [
        "tests/corpus",
        "examples/kernels",
        "tests/fixtures/analysis",
    ]
    .iter()
    .flat_map(common::ptx_files)
    .collect()
}

fn check_invariants(a: &Analysis, what: &str) {
    for k in &a.kernels {
        for x in &k.accesses {
            let p = &x.per_request;
            for v in [
                p.l1_lines,
                p.sectors,
                p.ideal_sectors,
                p.sectors_min,
                p.sectors_max,
            ] {
                assert!(v.is_finite() && v >= 0.0, "{what}: {} {:?}", k.name, p);
            }
            assert!(
                p.sectors_min <= p.sectors_max + 1e-9,
                "{what}: {} {:?}",
                k.name,
                p
            );
            assert!(
                p.sectors_min - 1e-9 <= p.sectors && p.sectors <= p.sectors_max + 1e-9,
                "{what}: {} {:?}",
                k.name,
                p
            );
            // JSON contract: serialisable without NaN.
            serde_json::to_string(x).expect("serialises");
        }
        if let Some(t) = &k.totals {
            assert!(t.sectors_min <= t.sectors_max, "{what}: {}", k.name);
        }
    }
}

fn launches() -> Vec<Options> {
    vec![
        Options::default(),
        Options {
            launch: LaunchConfig {
                block: Some([96, 2, 1]),
                grid: Some([3, 2, 1]),
                params: vec![
                    (ParamKey::Index(0), 1.into()),
                    (ParamKey::Index(1), 4096.into()),
                    (ParamKey::Index(2), 77.into()),
                    (ParamKey::Index(3), (-5).into()),
                ],
            },
            ..Options::default()
        },
    ]
}

#[test]
fn corpus_and_examples() {
    let files = corpus_files();
    assert!(files.len() > 10, "found {}", files.len());
    for path in &files {
        let text = std::fs::read(path).expect("read");
        let file = SourceFile::new(path.display().to_string(), text).expect("size");
        for opts in launches() {
            let t0 = std::time::Instant::now();
            let a = analyze(&file, &opts);
            if std::env::var("ROBUST_TIMING").is_ok() {
                eprintln!("{:?} {}", t0.elapsed(), path.display());
            }
            check_invariants(&a, &path.display().to_string());
        }
    }
}

/// A tiny deterministic generator (no dependency needed).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn mangled_inputs() {
    let mut rng = Lcg(7);
    let files: Vec<_> = corpus_files()
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("invalid"))
        .take(40)
        .collect();
    // Launch facts without a grid: the static analysis runs on every mutant,
    // the simulation (bounded by its budget) on the unmutated files above.
    let opts = Options {
        launch: LaunchConfig {
            grid: None,
            ..launches()[1].launch.clone()
        },
        ..Options::default()
    };
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.len() > 200_000 {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        for round in 0..6 {
            let mutated = match round {
                // truncated
                0 | 1 => {
                    let cut = (rng.next() as usize) % text.len().max(1);
                    let mut c = cut;
                    while !text.is_char_boundary(c) {
                        c -= 1;
                    }
                    text[..c].to_string()
                }
                // lines dropped
                2 | 3 => lines
                    .iter()
                    .filter(|_| !rng.next().is_multiple_of(7))
                    .copied()
                    .collect::<Vec<_>>()
                    .join("\n"),
                // lines swapped
                4 => {
                    let mut l = lines.clone();
                    for _ in 0..l.len() / 4 {
                        let a = rng.next() as usize % l.len().max(1);
                        let b = rng.next() as usize % l.len().max(1);
                        l.swap(a, b);
                    }
                    l.join("\n")
                }
                // bytes flipped
                _ => {
                    let mut b = text.clone().into_bytes();
                    for _ in 0..b.len() / 50 {
                        let i = rng.next() as usize % b.len().max(1);
                        b[i] = b"%[]{}.,;0123456789xv+-@!"[rng.next() as usize % 24];
                    }
                    String::from_utf8_lossy(&b).into_owned()
                }
            };
            let file = SourceFile::from_text(path.display().to_string(), mutated);
            let a = analyze(&file, &opts);
            check_invariants(&a, &format!("{} (round {round})", path.display()));
        }
    }
}

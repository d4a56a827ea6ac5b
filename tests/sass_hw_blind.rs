//! Agreement per SASS instruction on the held-out batches with CUDA modules
//! (`tests/hw/blind{,2,…,11}/`, `tests/hw/blind13/` and `blind14/`, which
//! have no Triton part, and `blind16/` .. `blind22/`, which have one) and on
//! `tests/hw/blind15/` (Triton only), and on the `wmma` suite of
//! `tests/hw/wmma/` (its CUDA module: `wmma.load`/`wmma.store` as `LDSM`,
//! `MOVM`-transposed `LDG`, `LD.E.64`/`.128`, byte loads):
//! `tests/sass_hw.rs`'s comparison, run on the SASS of the batches' CUDA
//! modules and Triton kernels.
//!
//! - Listings: each batch's `raw/sass.tgz` (`sass/<module>.nvdisasm.sass`
//!   for the CUDA module, `sass/triton_<kernel>.nvdisasm.sass` for a Triton
//!   kernel; `nvdisasm -g -c`, so no `.nv.info`: the parameters are inferred
//!   from the constant-bank reads, `src/lower/sass.rs`).
//! - Counters: `measured_sass.json` and `measured_sass_triton.json`
//!   (per SASS instruction, written by `tests/hw/parse_ncu.py`; schema in
//!   `tests/hw/README.md`); launches: `launches.json` and
//!   `triton/launches.json` (through `common::launch_options`, as
//!   `tests/hw_agreement.rs` reads them).
//! - Criteria (those of `tests/sass_hw.rs`): every measured global memory
//!   instruction with at least one request is looked up by offset among the
//!   kernel's accesses; requests must be equal, L1 lines and sectors per
//!   request within 0.05, or, where warpscope gives bounds (a `random`
//!   address, an unknown alignment), the measured figures inside them.
//!   A shared-memory instruction is compared on wavefronts per request
//!   (within 0.05, requests equal) where warpscope predicts them. A measured
//!   instruction with no access at its offset counts as missing (a global
//!   one also as a disagreement).
//!
//! Each batch's figures are floors (`FLOORS`, the figures measured when
//! they were last raised): the test fails when one drops. The per-batch
//! figures and every disagreement, with its reason from
//! `tests/hw/sass_blind_known.txt` (`batch|launch|offset|reason`), are the
//! snapshot `sass_hw_blind__sass_blind_summary`; the full table is written
//! to `target/sass_hw_blind_agreement.md`.

mod common;

use common::launch_options;
use serde_json::Value as J;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::Read as _;
use warpscope::analysis::Pattern;
use warpscope::source::SourceFile;

const TOL: f64 = 0.05;

/// The held-out batches, in order.
const BATCHES: [&str; 22] = [
    "blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
    "blind10", "blind11", "blind13", "blind14", "blind15", "blind16", "blind17", "blind18",
    "blind19", "blind20", "blind21", "blind22", "wmma",
];

/// Per batch: (global agree, global compared, shared agree, shared compared,
/// missing). The test fails when an agreement drops below its floor, fewer
/// global or shared instructions are compared, or the missing count rises above its
/// ceiling. (Shared instructions are compared where warpscope predicts
/// wavefronts, as in `tests/sass_hw.rs`; those it does not are counted in
/// the summary's "shared without wavefronts".)
const FLOORS: [(&str, usize, usize, usize, usize, usize); 22] = [
    ("blind", 445, 451, 376, 408, 0),
    ("blind2", 246, 284, 149, 151, 0),
    ("blind3", 442, 464, 496, 541, 0),
    ("blind4", 410, 598, 322, 427, 0),
    ("blind5", 598, 623, 841, 841, 0),
    ("blind6", 824, 879, 673, 689, 0),
    ("blind7", 613, 711, 1257, 1307, 0),
    ("blind8", 530, 653, 295, 310, 0),
    ("blind9", 552, 585, 512, 544, 0),
    ("blind10", 621, 646, 418, 436, 0),
    ("blind11", 697, 767, 273, 273, 0),
    ("blind13", 293, 329, 134, 140, 0),
    ("blind14", 123, 184, 54, 75, 0),
    ("blind15", 523, 569, 774, 807, 0),
    ("blind16", 576, 658, 328, 392, 0),
    ("blind17", 450, 565, 571, 732, 0),
    ("blind18", 641, 680, 402, 426, 0),
    ("blind19", 665, 766, 198, 206, 0),
    ("blind20", 709, 802, 301, 309, 0),
    ("blind21", 352, 418, 478, 649, 0),
    ("blind22", 387, 502, 277, 323, 0),
    ("wmma", 714, 714, 187, 187, 0),
];

fn load(path: &str) -> J {
    let t = common::read_measurement(path);
    serde_json::from_str(&t).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `listing name -> nvdisasm listing` from a batch's archive.
fn listings(batch: &str) -> HashMap<String, String> {
    let p = format!("tests/hw/{batch}/raw/sass.tgz");
    let f = std::fs::File::open(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let mut ar = tar::Archive::new(flate2::read::GzDecoder::new(f));
    let mut out = HashMap::new();
    for e in ar.entries().expect("tar") {
        let mut e = e.expect("entry");
        let path = e.path().expect("path").display().to_string();
        let Some(name) = path
            .strip_prefix("sass/")
            .and_then(|n| n.strip_suffix(".nvdisasm.sass"))
        else {
            continue;
        };
        let mut text = String::new();
        e.read_to_string(&mut text).expect("utf-8 listing");
        out.insert(name.to_string(), text);
    }
    out
}

/// `batch|launch|offset -> reason` (`tests/hw/sass_blind_known.txt`).
fn known() -> BTreeMap<String, String> {
    let t = std::fs::read_to_string("tests/hw/sass_blind_known.txt")
        .expect("tests/hw/sass_blind_known.txt");
    t.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut it = l.splitn(4, '|');
            let (b, id, off, why) = (it.next()?, it.next()?, it.next()?, it.next()?);
            Some((format!("{b}|{id}|{off}"), why.trim().to_string()))
        })
        .collect()
}

fn f(v: &J) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

#[derive(Default, Clone, Copy)]
struct Figures {
    global: usize,
    agree: usize,
    shared: usize,
    shared_agree: usize,
    /// Shared instructions with an access but no wavefront prediction.
    shared_unpredicted: usize,
    missing: usize,
}

/// One batch: its figures, and its lines of the table and of the
/// disagreement list (`batch|launch|offset`, description).
fn batch(
    name: &str,
    table: &mut String,
    diffs: &mut Vec<(String, String)>,
    diagnostics: &mut Vec<String>,
) -> Figures {
    let dir = format!("tests/hw/{name}");
    let texts = listings(name);
    let files: HashMap<&String, SourceFile> = texts
        .iter()
        .map(|(m, t)| {
            (
                m,
                SourceFile::from_text(format!("{m}.nvdisasm.sass"), t.clone()),
            )
        })
        .collect();
    let mut fig = Figures::default();
    for (lpath, mpath) in [
        (
            format!("{dir}/launches.json"),
            format!("{dir}/measured_sass.json"),
        ),
        (
            format!("{dir}/triton/launches.json"),
            format!("{dir}/measured_sass_triton.json"),
        ),
    ] {
        if !std::path::Path::new(&lpath).exists() {
            // a batch with no Triton part (blind13, blind14) or no CUDA
            // part (blind15)
            continue;
        }
        let launches = load(&lpath);
        let measured = load(&mpath);
        let buffers: Vec<String> = launches["buffers"]
            .as_object()
            .expect("buffers")
            .keys()
            .cloned()
            .collect();
        let by_id: HashMap<&str, &J> = launches["launches"]
            .as_array()
            .expect("launches")
            .iter()
            .map(|l| (l["id"].as_str().expect("id"), l))
            .collect();
        for m in measured["launches"].as_array().expect("launches") {
            let id = m["id"].as_str().expect("id");
            let module = m["module"].as_str().expect("module").to_string();
            let launch = by_id
                .get(id)
                .unwrap_or_else(|| panic!("{lpath}: no launch {id}"));
            let file = files
                .get(&module)
                .or_else(|| files.get(&format!("triton_{module}")))
                .unwrap_or_else(|| panic!("{name}: no listing of {module}"));
            let opts = launch_options(launch, &buffers);
            let a = warpscope::analyze(file, &opts);
            for d in &a.diagnostics {
                diagnostics.push(format!("{name} {id}: {d:?}"));
            }
            // Why the launch has no request counts, when it has none (the
            // analysis's reason, shortened to its first clause).
            let why_unsimulated = a
                .kernels
                .first()
                .and_then(|k| k.totals_unavailable.as_deref())
                .map(|w| {
                    let w = w.split(';').next().unwrap_or(w);
                    format!(" [not simulated: {}]", w.trim())
                })
                .unwrap_or_default();
            let by_offset: BTreeMap<u32, &warpscope::Access> = a
                .kernels
                .first()
                .map(|k| {
                    k.accesses
                        .iter()
                        .filter_map(|x| Some((x.sass_offset?, x)))
                        .collect()
                })
                .unwrap_or_default();
            for ins in m["instructions"].as_array().expect("instructions") {
                let requests = f(&ins["requests"]);
                let space = ins["address_space"].as_str().unwrap_or("");
                if requests <= 0.0 || (space != "global" && space != "shared") {
                    continue;
                }
                let off_s = ins["offset"].as_str().expect("offset");
                let off =
                    u32::from_str_radix(off_s.trim_start_matches("0x"), 16).expect("hex offset");
                let key = format!("{name}|{id}|{off:#06x}");
                let sass = ins["sass"].as_str().unwrap_or("");
                let line = ins["line"].as_u64().unwrap_or(0);
                let Some(acc) = by_offset.get(&off) else {
                    fig.missing += 1;
                    if space == "global" {
                        fig.global += 1;
                    }
                    diffs.push((key, format!("`{sass}` ({space}): no access")));
                    writeln!(
                        table,
                        "| {name} | {id} | {off:#06x} | `{sass}` | {line} | {space} | — | {requests} | | | | | NO (missing) |"
                    )
                    .unwrap();
                    continue;
                };
                let pred_req = acc.requests.unwrap_or(0) as f64;
                if space == "global" {
                    fig.global += 1;
                    let ml = f(&ins["l1_tag_requests"]) / requests;
                    let ms = f(&ins["sectors"]) / requests;
                    let pr = &acc.per_request;
                    let bounded = acc.pattern == Pattern::Random
                        || pr.sectors_min != pr.sectors_max
                        || pr.l1_lines_min != pr.l1_lines_max;
                    let per_request_ok = if bounded {
                        ms >= pr.sectors_min - TOL
                            && ms <= pr.sectors_max + TOL
                            && (acc.pattern == Pattern::Random
                                || (ml >= pr.l1_lines_min - TOL && ml <= pr.l1_lines_max + TOL))
                    } else {
                        (pr.l1_lines - ml).abs() <= TOL && (pr.sectors - ms).abs() <= TOL
                    };
                    let ok = pred_req == requests && per_request_ok;
                    if ok {
                        fig.agree += 1;
                    } else {
                        diffs.push((
                            key,
                            format!(
                                "`{sass}`: requests {pred_req}/{requests}, lines {:.2}/{ml:.2}, sectors {:.2}/{ms:.2} [{:.2}, {:.2}] ({:?}){}",
                                q(pr.l1_lines),
                                q(pr.sectors),
                                q(pr.sectors_min),
                                q(pr.sectors_max),
                                acc.pattern,
                                if acc.requests.is_none() { why_unsimulated.as_str() } else { "" }
                            ),
                        ));
                    }
                    writeln!(
                        table,
                        "| {name} | {id} | {off:#06x} | `{sass}` | {line} | {:?} | {pred_req} | {requests} | {:.2} | {ml:.2} | {:.2} | {ms:.2} | {} |",
                        acc.pattern, pr.l1_lines, pr.sectors, if ok { "yes" } else { "NO" }
                    )
                    .unwrap();
                } else {
                    let (Some(pw), Some(mw)) =
                        (acc.shared_wavefronts, ins["shared_wavefronts"].as_f64())
                    else {
                        fig.shared_unpredicted += 1;
                        continue;
                    };
                    fig.shared += 1;
                    let ok = (pw - mw / requests).abs() <= TOL && pred_req == requests;
                    if ok {
                        fig.shared_agree += 1;
                    } else {
                        diffs.push((
                            key,
                            format!(
                                "`{sass}` (shared): requests {pred_req}/{requests}, wavefronts/request {:.2}/{:.2}{}",
                                q(pw),
                                mw / requests,
                                if acc.requests.is_none() { why_unsimulated.as_str() } else { "" }
                            ),
                        ));
                    }
                    writeln!(
                        table,
                        "| {name} | {id} | {off:#06x} | `{sass}` | {line} | shared | {pred_req} | {requests} | wavefronts {pw:.2} | {:.2} | | | {} |",
                        mw / requests,
                        if ok { "yes" } else { "NO" }
                    )
                    .unwrap();
                }
            }
        }
    }
    fig
}

/// A model figure as the snapshot prints it: rounded to 1e-6 first, so that
/// a tie such as 15.625 prints the same whatever last bits the build's
/// optimisation level leaves (`{:.2}` printed 15.63 in a debug build and
/// 15.62 in the release build for the same access).
fn q(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[test]
fn sass_blind_batches_agree_with_the_hardware() {
    let known = known();
    let mut table = String::from(
        "| batch | launch | offset | SASS | line | pattern | requests pred | meas | lines/req pred | meas | sectors/req pred | meas | agree |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let mut summary = String::from(
        "| batch | global agree / compared | shared agree / compared | shared without wavefronts | missing |\n| --- | --- | --- | --- | --- |\n",
    );
    let mut all_diffs = Vec::new();
    let mut diagnostics = Vec::new();
    let mut failures = Vec::new();
    let mut total = Figures::default();
    // The batches are independent: analysed on every core (a worker takes
    // the next batch), then reported in their order.
    type Done = (Figures, String, Vec<(String, String)>, Vec<String>);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<Done>>> =
        std::sync::Mutex::new(vec![None; BATCHES.len()]);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(BATCHES.len());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(b) = BATCHES.get(i) else { break };
                let (mut t, mut d, mut g) = (String::new(), Vec::new(), Vec::new());
                let fig = batch(b, &mut t, &mut d, &mut g);
                done.lock().unwrap()[i] = Some((fig, t, d, g));
            });
        }
    });
    let done = done.into_inner().unwrap();
    for ((b, floor), out) in BATCHES.iter().zip(FLOORS).zip(done) {
        assert_eq!(*b, floor.0);
        let (fig, t, d, g) = out.expect("every batch analysed");
        table.push_str(&t);
        all_diffs.extend(d);
        diagnostics.extend(g);
        writeln!(
            summary,
            "| {b} | {}/{} | {}/{} | {} | {} |",
            fig.agree,
            fig.global,
            fig.shared_agree,
            fig.shared,
            fig.shared_unpredicted,
            fig.missing
        )
        .unwrap();
        total.global += fig.global;
        total.agree += fig.agree;
        total.shared += fig.shared;
        total.shared_agree += fig.shared_agree;
        total.missing += fig.missing;
        total.shared_unpredicted += fig.shared_unpredicted;
        if fig.agree < floor.1
            || fig.global < floor.2
            || fig.shared_agree < floor.3
            || fig.shared < floor.4
            || fig.missing > floor.5
        {
            failures.push(format!(
                "{b}: global {}/{} shared {}/{} missing {} below the floor {:?}",
                fig.agree, fig.global, fig.shared_agree, fig.shared, fig.missing, floor
            ));
        }
    }
    writeln!(
        summary,
        "| all | {}/{} | {}/{} | {} | {} |",
        total.agree,
        total.global,
        total.shared_agree,
        total.shared,
        total.shared_unpredicted,
        total.missing
    )
    .unwrap();
    let mut listed = String::new();
    let mut unexplained = 0;
    for (key, what) in &all_diffs {
        let why = known.get(key).map(String::as_str).unwrap_or_else(|| {
            if what.contains("[not simulated:") {
                "no request count: the launch was not simulated (the analysis's reason in brackets)"
            } else {
                unexplained += 1;
                "(unexplained)"
            }
        });
        writeln!(listed, "{key}: {what} — {why}").unwrap();
    }
    let stale: Vec<&String> = known
        .keys()
        .filter(|k| !all_diffs.iter().any(|(d, _)| d == *k))
        .collect();
    let report = format!(
        "# SASS agreement on the held-out batches (tests/sass_hw_blind.rs)\n\n{summary}\n{table}\n## Disagreements\n\n{listed}\n## Diagnostics\n\n{}\n",
        diagnostics.join("\n")
    );
    let _ = std::fs::create_dir_all("target");
    let _ = std::fs::write("target/sass_hw_blind_agreement.md", &report);
    insta::assert_snapshot!(
        "sass_blind_summary",
        format!(
            "{summary}\ndisagreements: {}, of which without a listed reason or a missing simulation: {unexplained}\n\n{listed}",
            all_diffs.len()
        )
    );
    assert!(
        failures.is_empty(),
        "{}\n{summary}(see target/sass_hw_blind_agreement.md)",
        failures.join("\n")
    );
    assert!(
        stale.is_empty(),
        "tests/hw/sass_blind_known.txt lists entries that now agree: {stale:?}"
    );
    assert!(total.global >= 1000, "too few global instructions compared");
}

//! The reports of every example kernel and every calibration kernel, checked
//! against the reviewed snapshots in `snapshots/` (see `snapshots/README.md`).
//!
//! Launches come from `tests/hw/launches.json` (the hardware engineer's file:
//! the grid, block and scalar parameters each kernel was measured with on the
//! H100). Each launch gives one snapshot `snapshots/<module>__<launch id>.snap`;
//! each module also gets `snapshots/<module>__file.snap`, the report of the
//! whole PTX file with no launch facts (what `warpscope report FILE` prints).
//! `every_launch` also checks that the report's per-access launch figures add
//! up to the analysis' simulated totals wherever both are exact.
//! Accept intended changes with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test --test report_snapshots`), and read the diff.

use rayon::prelude::*;
use serde_json::Value;
use std::path::Path;
use warpscope::analysis::{AccessOp, LaunchConfig, MemKind, Options, ParamKey, Space};
use warpscope::report::{render_text, AccessLaunch, Report};
use warpscope::source::SourceFile;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn launches() -> Value {
    let text = std::fs::read_to_string(root().join("tests/hw/launches.json"))
        .expect("tests/hw/launches.json");
    serde_json::from_str(&text).expect("launches.json is JSON")
}

/// The text report of `ptx` (a path relative to the repository root, printed
/// as such) under `opts`.
fn report(ptx: &str, opts: &Options) -> String {
    render_text(&report_of(ptx, opts))
}

fn report_of(ptx: &str, opts: &Options) -> Report {
    let bytes = std::fs::read(root().join(ptx)).unwrap_or_else(|e| panic!("{ptx}: {e}"));
    let file = SourceFile::new(ptx, bytes).unwrap();
    let analysis = warpscope::analyze(&file, opts);
    Report::from_analysis(&file, &analysis)
}

/// The report's per-access launch figures (per-request averages × requests,
/// derived in `warpscope::report`) against the analysis' whole-launch totals
/// (an independent simulation of the launch's warps). `None` when they are
/// not both exact (sampled blocks, data-dependent bounds, unknown requests);
/// otherwise `Some(Ok)` or `Some(Err(why))`. Atomic sectors are left out: the
/// analysis counts them per kernel, not per access.
fn consistency(report: &Report) -> Option<Result<(), String>> {
    let k = report.files.first()?.kernels.first()?;
    let t = k.totals.as_ref()?;
    let global: Vec<_> = k
        .accesses
        .iter()
        .filter(|a| a.space == Space::Global)
        .collect();
    let exact = t.blocks_simulated == t.blocks_total
        && t.sectors_min == t.sectors_max
        && global
            .iter()
            .all(|a| a.launch.is_some() && a.sectors_min == a.sectors_max);
    if !exact {
        return None;
    }
    let sum = |op: AccessOp, f: fn(&AccessLaunch) -> u64| -> u64 {
        global
            .iter()
            .filter(|a| a.op == op)
            .filter_map(|a| a.launch.as_ref())
            .map(f)
            .sum()
    };
    // Nsight's kernel-level counters, which the totals follow, skip the
    // requests in which no lane accesses memory (predicated off in every
    // lane, or all zero-fill) and the copy engine's bulk and tensor copies;
    // the per-access figures count them (tests/hw/README.md, findings 15, 17).
    let requests = |op: AccessOp| -> u64 {
        global
            .iter()
            .filter(|a| a.op == op && !matches!(a.kind, MemKind::BulkCopy | MemKind::TensorOperand))
            .filter_map(|a| Some(a.launch.as_ref()?.requests - a.empty_requests.unwrap_or(0)))
            .sum()
    };
    let derived = [
        requests(AccessOp::Load),
        sum(AccessOp::Load, |l| l.sectors),
        requests(AccessOp::Store),
        sum(AccessOp::Store, |l| l.sectors),
        requests(AccessOp::Atomic),
    ];
    let simulated = [
        t.load_requests,
        t.load_sectors,
        t.store_requests,
        t.store_sectors,
        t.atomic_requests,
    ];
    Some(if derived == simulated {
        Ok(())
    } else {
        Err(format!(
            "report {derived:?} vs totals {simulated:?} (load requests, load sectors, store requests, store sectors, atomic requests)"
        ))
    })
}

fn dim3(v: &Value) -> [u32; 3] {
    let a = v.as_array().expect("dim3 array");
    let d = |i: usize| a.get(i).and_then(Value::as_u64).unwrap_or(1) as u32;
    [d(0), d(1), d(2)]
}

/// A launch's analysis options: block, grid, scalar parameters by index, the
/// kernel alone, and the pointers' alignment implied by their byte offsets
/// (every buffer is allocated 2 MiB-aligned, so an offset of 4 gives 4-byte
/// alignment; no offset keeps cudaMalloc's 256).
fn options(launch: &Value) -> Options {
    let mut params = Vec::new();
    let mut align = Options::default().pointer_align;
    for p in launch["params"].as_array().into_iter().flatten() {
        let index = p["index"].as_u64().expect("param index") as usize;
        match p["kind"].as_str() {
            Some("scalar") => params.push((
                ParamKey::Index(index),
                p["value"].as_i64().expect("scalar value").into(),
            )),
            Some("pointer") => {
                let off = p["offset_bytes"].as_u64().unwrap_or(0);
                if off != 0 {
                    align = align.min(1u32 << off.trailing_zeros().min(31));
                }
            }
            _ => {}
        }
    }
    Options {
        launch: LaunchConfig {
            block: Some(dim3(&launch["block"])),
            grid: Some(dim3(&launch["grid"])),
            params,
        },
        kernel_filter: Some(launch["kernel"].as_str().expect("kernel").to_string()),
        pointer_align: align,
        ..Options::default()
    }
}

fn check(name: &str, description: String, text: String) {
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
        description => description,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn every_module_without_launch_facts() {
    let l = launches();
    let modules = l["modules"].as_object().expect("modules");
    assert!(
        modules.len() >= 6,
        "the calibration suite and the five examples"
    );
    for (module, m) in modules {
        let ptx = m["ptx"].as_str().expect("ptx path");
        check(
            &format!("{module}__file"),
            format!("warpscope report {ptx}"),
            report(ptx, &Options::default()),
        );
    }
}

#[test]
fn every_launch() {
    let l = launches();
    let launches = l["launches"].as_array().expect("launches");
    assert!(!launches.is_empty());
    // Analyse in parallel (some launches simulate a million loop iterations),
    // then compare in launch order.
    type Checked = (String, String, String, Option<Result<(), String>>);
    let reports: Vec<Checked> = launches
        .par_iter()
        .map(|launch| {
            let id = launch["id"].as_str().expect("launch id");
            let module = launch["module"].as_str().expect("module");
            let ptx = l["modules"][module]["ptx"].as_str().expect("module's ptx");
            let opts = options(launch);
            let report = report_of(ptx, &opts);
            let text = render_text(&report);
            assert!(
                text.contains("\nkernel "),
                "{id}: the launch's kernel was not found in {ptx}:\n{text}"
            );
            let consistent = consistency(&report).map(|r| r.map_err(|e| format!("{id}: {e}")));
            (
                format!("{module}__{id}"),
                command_line(ptx, id, &opts),
                text,
                consistent,
            )
        })
        .collect();
    let compared = reports.iter().filter(|r| r.3.is_some()).count();
    let mismatches: Vec<String> = reports.iter().filter_map(|r| r.3.clone()?.err()).collect();
    for (name, description, text, _) in reports {
        check(&name, description, text);
    }
    // The per-access figures must add up to the simulated totals wherever both
    // are exact (118 of the 126 launches when this was written).
    assert!(
        compared >= 100,
        "only {compared} launches were exact enough to compare with their totals"
    );
    assert!(
        mismatches.is_empty(),
        "per-access figures disagree with the totals:\n{mismatches:#?}"
    );
}

/// The `warpscope report` command that prints the same report.
fn command_line(ptx: &str, id: &str, opts: &Options) -> String {
    let params: String = opts
        .launch
        .params
        .iter()
        .map(|(k, v)| match k {
            ParamKey::Index(i) => format!(" --param {i}={v}"),
            ParamKey::Name(n) => format!(" --param {n}={v}"),
        })
        .collect();
    let dims =
        |d: Option<[u32; 3]>| d.map_or_else(String::new, |d| format!("{},{},{}", d[0], d[1], d[2]));
    let align = if opts.pointer_align != Options::default().pointer_align {
        format!(" --pointer-align {}", opts.pointer_align)
    } else {
        String::new()
    };
    format!(
        "warpscope report {ptx} --kernel {} --block {} --grid {}{params}{align} (launch `{id}` of tests/hw/launches.json)",
        opts.kernel_filter.as_deref().unwrap_or("*"),
        dims(opts.launch.block),
        dims(opts.launch.grid),
    )
}

/// Every snapshot in `snapshots/` belongs to a module or a launch that still
/// exists (or to the insta example), so a removed launch does not leave a
/// stale report behind.
#[test]
fn no_stale_snapshots() {
    let l = launches();
    let mut expected: std::collections::BTreeSet<String> = l["modules"]
        .as_object()
        .expect("modules")
        .keys()
        .map(|m| format!("{m}__file.snap"))
        .collect();
    for launch in l["launches"].as_array().expect("launches") {
        expected.insert(format!(
            "{}__{}.snap",
            launch["module"].as_str().unwrap_or(""),
            launch["id"].as_str().unwrap_or("")
        ));
    }
    let mut stale = Vec::new();
    for entry in std::fs::read_dir(root().join("snapshots")).expect("snapshots/") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        let ours = name.ends_with(".snap") && !name.starts_with("snapshot_kernels__");
        if ours && !expected.contains(&name) {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "snapshots with no module or launch: {stale:?}"
    );
}

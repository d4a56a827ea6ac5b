//! `warpscope._native`: the extension module behind the `warpscope` Python
//! package. A thin layer over the library, like the command line.
//!
//! Requests and results cross the boundary as JSON text: the Python side
//! (`warpscope/__init__.py`) checks and normalises the keyword arguments
//! into a request, and turns the result into dicts or raises the
//! package's exceptions. That keeps this file free of Python object
//! plumbing, and the results are exactly the JSON contract the command line
//! prints.
//!
//! Failures that the caller must see as exceptions (an invalid
//! configuration file, a bad override) come back as
//! `{"error": {"kind", "message", "file", "line", "column"}}`.

use pyo3::prelude::*;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warpscope::analysis::{Analysis, LaunchConfig, ParamKey};
use warpscope::config::{resolve, Config, ConfigSource, Overrides, ResolveError};
use warpscope::diagnostic::Diagnostic;
use warpscope::lints::{check_file, Level};
use warpscope::output::fingerprints;
use warpscope::report::{ReportEmitter, ReportFormat};
use warpscope::source::SourceFile;
use warpscope::triton::TritonMetadata;

/// A request from the Python side (see `warpscope/__init__.py`).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Request {
    #[serde(default)]
    block: Option<[u32; 3]>,
    #[serde(default)]
    grid: Option<[u32; 3]>,
    #[serde(default)]
    params: Vec<(ParamKey, warpscope::analysis::ParamValue)>,
    #[serde(default)]
    kernel: Option<String>,
    #[serde(default)]
    arch: Option<String>,
    #[serde(default)]
    pointer_align: Option<u32>,
    /// A configuration file; `discover` searches from the current directory
    /// instead; neither: the defaults.
    #[serde(default)]
    config: Option<PathBuf>,
    #[serde(default)]
    discover: bool,
    /// Lint levels (name or code, `allow`/`warn`/`deny`).
    #[serde(default)]
    lints: Vec<(String, Level)>,
    /// Triton metadata (JSON text) of the kernel, as launch facts.
    #[serde(default)]
    triton: Option<String>,
}

fn error(kind: &str, message: impl Into<String>) -> Value {
    json!({"error": {"kind": kind, "message": message.into(), "file": null, "line": null, "column": null}})
}

/// The configuration a request asks for, through the same
/// [`warpscope::config::resolve`] as `check`, `report` and the language server.
fn config_of(req: &Request) -> Result<Config, Value> {
    let arch = match &req.arch {
        Some(a) => Some(warpscope::config::parse_arch(a).ok_or_else(|| {
            error(
                "usage",
                format!("unknown architecture `{a}`: expected sm60 or sm70 (or any later sm_XX)"),
            )
        })?),
        None => None,
    };
    let overrides = Overrides {
        levels: req.lints.clone(),
        kernel_filter: req.kernel.clone(),
        launch: LaunchConfig {
            block: req.block,
            grid: req.grid,
            params: req.params.clone(),
        },
        arch,
        pointer_align: req.pointer_align,
    };
    let source = match (&req.config, req.discover) {
        (Some(p), _) => ConfigSource::File(p.clone()),
        (None, true) => ConfigSource::Discover,
        (None, false) => ConfigSource::Defaults,
    };
    let mut config = match resolve(&source, Path::new("."), &overrides) {
        Ok(r) => r.config,
        Err(ResolveError::File(e)) => {
            let (line, column) = match e.span {
                Some(s) if (s.start as usize) <= e.text.len() => {
                    let f = SourceFile::from_text(e.path.display().to_string(), e.text.clone());
                    let lc = f.line_col(s.start);
                    (Some(lc.line), Some(lc.column))
                }
                _ => (None, None),
            };
            return Err(json!({"error": {"kind": "config", "message": e.message,
                "file": e.path.display().to_string(), "line": line, "column": column}}));
        }
        Err(ResolveError::Override(m)) => return Err(error("usage", m)),
    };
    if let Some(t) = &req.triton {
        let meta = TritonMetadata::from_json(t).map_err(|m| error("usage", m))?;
        meta.apply(&mut config.options, arch.is_none());
    }
    Ok(config)
}

fn parse_request(request: &str) -> Result<Request, Value> {
    serde_json::from_str(request).map_err(|e| error("usage", format!("bad request: {e}")))
}

/// A diagnostic as a JSON object (the fields of `check --format json`).
fn diagnostic(
    file: &SourceFile,
    d: &Diagnostic,
    source: Option<&warpscope::analysis::SourceLocation>,
    fingerprint: Option<&str>,
) -> Value {
    let len = file.text().len() as u32;
    let span = d.span();
    let start = file.line_col(span.start.min(len));
    let end = file.line_col(span.end.min(len).max(span.start.min(len)));
    json!({
        "path": file.name(),
        "line": start.line, "column": start.column,
        "end_line": end.line, "end_column": end.column,
        "code": d.code, "name": d.name, "severity": d.severity.as_str(),
        "message": d.message, "notes": d.notes, "help": d.help,
        "source": source,
        "fingerprint": fingerprint,
    })
}

fn analysis_json(file: &SourceFile, analysis: &Analysis) -> Value {
    let diags: Vec<Value> = analysis
        .diagnostics
        .iter()
        .map(|d| diagnostic(file, d, None, None))
        .collect();
    json!({"version": 1, "path": file.name(), "kernels": analysis.kernels, "diagnostics": diags})
}

fn run<F: FnOnce(Request) -> Result<Value, Value>>(request: &str, f: F) -> String {
    let out = parse_request(request).and_then(f).unwrap_or_else(|e| e);
    out.to_string()
}

/// analyze(ptx, name, request) -> JSON text: the analysis contract
/// (`version`, `path`, `kernels`, front-end `diagnostics`).
#[pyfunction]
fn analyze(ptx: &str, name: &str, request: &str) -> String {
    run(request, |req| {
        let config = config_of(&req)?;
        let file = SourceFile::from_text(name, ptx);
        let analysis = warpscope::analyze(&file, &config.options);
        Ok(analysis_json(&file, &analysis))
    })
}

/// check(ptx, name, request) -> JSON text: `{"kernels", "diagnostics"}`
/// with levels, suppressions (the sources `.loc` names are read from disk
/// when they can be) and fingerprints applied.
#[pyfunction]
fn check(ptx: &str, name: &str, request: &str) -> String {
    run(request, |req| {
        let config = config_of(&req)?;
        let file = SourceFile::from_text(name, ptx);
        let mut result = check_file(&file, &config);
        let names = warpscope::suppress::files_to_read(&result);
        let sources: BTreeMap<String, String> =
            warpscope::cli::common::read_sources(Path::new(name), &names);
        warpscope::suppress::apply(&file, &mut result, &sources, &config);
        let fps = fingerprints(file.name(), &file, &result.findings);
        let diags: Vec<Value> = result
            .findings
            .iter()
            .zip(&fps)
            .enumerate()
            .map(|(i, (d, fp))| diagnostic(&file, &d, result.findings.location(i), Some(fp)))
            .collect();
        Ok(
            json!({"version": 1, "path": file.name(), "kernels": result.analysis.kernels, "diagnostics": diags}),
        )
    })
}

/// report(ptx, name, request, format) -> JSON text `{"text": ...}` with the
/// report in `text`, `markdown` or `json`.
#[pyfunction]
fn report(ptx: &str, name: &str, request: &str, format: &str) -> String {
    run(request, |req| {
        let format = match format {
            "text" => ReportFormat::Text,
            "markdown" => ReportFormat::Markdown,
            "json" => ReportFormat::Json,
            other => {
                return Err(error(
                    "usage",
                    format!("unknown report format `{other}`: text, markdown or json"),
                ))
            }
        };
        let config = config_of(&req)?;
        let file = SourceFile::from_text(name, ptx);
        let analysis = warpscope::analyze(&file, &config.options);
        let mut e = ReportEmitter::new(format);
        let mut text = e.file(&file, &analysis);
        text.push_str(&e.finish());
        let errors: Vec<Value> = analysis
            .diagnostics
            .iter()
            .map(|d| diagnostic(&file, d, None, None))
            .collect();
        Ok(json!({"text": text, "diagnostics": errors}))
    })
}

/// run_cli(argv) -> exit status: the `warpscope` command line (argv[0] is
/// the program name). It prints to the process's stdout and stderr.
#[pyfunction]
fn run_cli(argv: Vec<String>) -> u8 {
    warpscope::cli::run(argv).0
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

//! Re-analysis latency of `warpscope lsp` after an edit of a 1 MB PTX file.
//!
//! Run: `cargo bench --bench lsp_reanalysis` (release build of the server).
//!
//! Drives the built binary over stdio exactly as an editor does: open a
//! ~1 MB document, then repeatedly send an incremental `didChange` (one
//! character of one immediate) and wait for the `publishDiagnostics` of that
//! version. The time measured is the whole round trip — apply the edit,
//! re-discover nothing, parse, run the checks and the analysis, build the
//! name index, convert and serialise the diagnostics — as the user sees it.
//!
//! Two shapes of file: many kernels of ordinary size (a CUTLASS-style
//! translation unit), and one huge kernel (an unrolled loop).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const KERNEL: &str = include_str!("../tests/nvim/fixtures/saxpy_strided.ptx");
const TARGET_BYTES: usize = 1 << 20;
const EDITS: usize = 30;
/// Under `cargo test --all-targets` (no `--bench` argument) the bench runs
/// once on a small file as a smoke test, in the test profile.
const SMOKE_BYTES: usize = 16 << 10;
const SMOKE_EDITS: usize = 2;

fn many_kernels(target: usize) -> String {
    let header_end = KERNEL.find(".visible .entry").unwrap();
    let (header, body) = KERNEL.split_at(header_end);
    let mut s = header.to_string();
    let mut i = 0;
    while s.len() < target {
        s.push_str(&body.replace("_Z6stridePfS_i", &format!("_Z6stridePfS_i_{i}")));
        i += 1;
    }
    s
}

fn one_big_kernel(target: usize) -> String {
    let block_start = KERNEL.find("\t.loc\t1 5 5").unwrap();
    let block_end = KERNEL.find("$L__BB0_2:").unwrap();
    let block = &KERNEL[block_start..block_end];
    let mut s = KERNEL[..block_start].to_string();
    while s.len() < target {
        s.push_str(block);
    }
    s.push_str(&KERNEL[block_end..]);
    s
}

/// Byte offset of the last digit of the last `, DIGITS;` in `text` (an
/// instruction's immediate last operand).
fn last_immediate_digit(text: &str) -> usize {
    let b = text.as_bytes();
    let mut end = b.len();
    while let Some(semi) = text[..end].rfind(';') {
        let digits = b[..semi]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let start = semi - digits;
        if digits > 0 && text[..start].ends_with(", ") {
            return semi - 1;
        }
        end = semi;
    }
    panic!("no immediate operand to edit in the document")
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Server {
        // `WARPSCOPE_BIN` runs another build of the server (a copy of the
        // release binary on another machine).
        let bin = std::env::var_os("WARPSCOPE_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_warpscope").into());
        let mut child = Command::new(bin)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start warpscope lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            stdin,
            stdout,
        }
    }
    fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{}", body.len(), body).unwrap();
        self.stdin.flush().unwrap();
    }
    fn recv(&mut self) -> Value {
        let mut len = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed stdout"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length:") {
                len = v.trim().parse().unwrap();
            }
        }
        let mut buf = vec![0; len];
        self.stdout.read_exact(&mut buf).unwrap();
        serde_json::from_slice(&buf).unwrap()
    }
    fn wait_diagnostics(&mut self, version: i64) -> usize {
        loop {
            let m = self.recv();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version
            {
                return m["params"]["diagnostics"].as_array().map_or(0, Vec::len);
            }
        }
    }
}

fn bench(name: &str, text: &str, edits: usize) {
    let mut s = Server::start();
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    let _ = s.recv();
    s.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let uri = "file:///tmp/warpscope-bench/big.ptx";
    let t0 = Instant::now();
    s.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}}));
    let n = s.wait_diagnostics(1);
    let open = t0.elapsed();

    // The edit: the last digit of the last decimal immediate operand
    // (`…, 128;` in the generated shapes) becomes 9, then 8, and so on, so
    // every version differs from the one before.
    let at = last_immediate_digit(text);
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut times = Vec::with_capacity(edits);
    for i in 0..edits {
        let version = i as i64 + 2;
        let digit = if i % 2 == 0 { "9" } else { "8" };
        let t = Instant::now();
        s.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": digit}]}}));
        s.wait_diagnostics(version);
        times.push(t.elapsed());
    }
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    let _ = s.recv();
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    let _ = s.child.wait();

    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mean = times.iter().map(|d| ms(*d)).sum::<f64>() / times.len() as f64;
    println!(
        "lsp_reanalysis/{name}: {} bytes, {} lines, {n} diagnostics; open {:.1} ms; edit→diagnostics over {edits} edits: \
         median {:.1} ms, mean {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        text.len(),
        text.lines().count(),
        ms(open),
        ms(times[times.len() / 2]),
        mean,
        ms(times[times.len() * 9 / 10]),
        ms(times[times.len() - 1]),
    );
}

/// Where the time goes: the library calls the server makes, timed in
/// process (median of `runs`).
fn breakdown(name: &str, text: &str, runs: usize) {
    use warpscope::source::SourceFile;
    let mut t = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    let config = warpscope::config::Config::default();
    for _ in 0..runs {
        let file = SourceFile::from_text("big.ptx", text);
        let t0 = Instant::now();
        let (module, mut diags) = warpscope::syntax::parse_file(&file);
        let t1 = Instant::now();
        let (symbols, sema) = warpscope::sema::check_module(&module);
        diags.extend(sema);
        let t2 = Instant::now();
        let kernels =
            warpscope::analyze_module_with_symbols(&file, &module, &symbols, &config.options);
        let t3 = Instant::now();
        let analysis = warpscope::analysis::Analysis {
            kernels,
            diagnostics: diags,
        };
        let checked = warpscope::lints::lint_analysis(&file, analysis, &config);
        let t4 = Instant::now();
        std::hint::black_box(checked);
        for (i, d) in [t1 - t0, t2 - t1, t3 - t2, t4 - t3].into_iter().enumerate() {
            t[i].push(d);
        }
    }
    let med = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64() * 1e3
    };
    println!(
        "lsp_reanalysis/{name}/library (in process, median of {runs}): parse {:.1} ms, sema {:.1} ms, analysis {:.1} ms, lints {:.1} ms",
        med(&mut t[0]),
        med(&mut t[1]),
        med(&mut t[2]),
        med(&mut t[3]),
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a name filter, if any, selects a shape.
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let (target, edits) = if bench_mode {
        (TARGET_BYTES, EDITS)
    } else {
        (SMOKE_BYTES, SMOKE_EDITS)
    };
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    type Shape = fn(usize) -> String;
    for (name, make) in [
        ("many_kernels", many_kernels as Shape),
        ("one_big_kernel", one_big_kernel),
    ] {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let text = make(target);
        bench(name, &text, edits);
        breakdown(name, &text, if bench_mode { 5 } else { 1 });
    }
    // A real module, e.g. one of the corpus's files of large kernels
    // (`WARPSCOPE_LSP_DOC=$WARPSCOPE_CORPUS/libs/…/libcublasLt.so.98.sm_120.ptx`).
    if let Some(path) = std::env::var_os("WARPSCOPE_LSP_DOC") {
        let text = std::fs::read_to_string(&path).expect("read WARPSCOPE_LSP_DOC");
        bench("document", &text, edits);
        breakdown("document", &text, if bench_mode { 5 } else { 1 });
    }
}

//! Drives the built `warpscope lsp` binary over stdio with real JSON-RPC
//! framing and checks its answers.
//!
//! The fixture is `tests/nvim/fixtures/saxpy_strided.ptx` (the Neovim test
//! opens the same file): one kernel with a coalesced `ld.global.f32`
//! (lane i at `4*i`) and a strided `st.global.f32` (lane i at `128*i`).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const FIXTURE: &str = include_str!("nvim/fixtures/saxpy_strided.ptx");
const URI: &str = "file:///tmp/warpscope-lsp-test/saxpy_strided.ptx";

/// Guards against a hung server only (a failing test beats a CI run that
/// never ends); no test measures time.
const HANG_GUARD: Duration = Duration::from_secs(120);

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    /// Notifications and server requests seen while waiting for responses.
    backlog: Vec<Value>,
    next_id: i64,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            len = v.trim().parse::<usize>().ok();
        }
    }
    let mut buf = vec![0; len?];
    r.read_exact(&mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start warpscope lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(m) = read_message(&mut r) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming: rx,
            backlog: Vec::new(),
            next_id: 0,
        }
    }

    fn send(&mut self, v: Value) {
        let body = serde_json::to_string(&v).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{}", body.len(), body).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_raw(&mut self, body: &str) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n{}", body.len(), body).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request_async(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn recv(&mut self) -> Value {
        self.incoming
            .recv_timeout(HANG_GUARD)
            .expect("the server answered")
    }

    /// The whole response (with `result` or `error`) to request `id`.
    fn response(&mut self, id: i64) -> Value {
        if let Some(i) = self
            .backlog
            .iter()
            .position(|m| m["id"] == json!(id) && m.get("method").is_none())
        {
            return self.backlog.remove(i);
        }
        loop {
            let m = self.recv();
            if m["id"] == json!(id) && m.get("method").is_none() {
                return m;
            }
            self.backlog.push(m);
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.request_async(method, params);
        let r = self.response(id);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// The next `publishDiagnostics` for `uri` with the given version.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let matches = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        };
        if let Some(i) = self.backlog.iter().position(matches) {
            let m = self.backlog.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.recv();
            if matches(&m) {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.backlog.push(m);
        }
    }

    fn initialize(&mut self, capabilities: Value, options: Value) -> Value {
        let r = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": capabilities, "initializationOptions": options}),
        );
        self.notify("initialized", json!({}));
        r
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}),
        );
    }

    fn shutdown(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r, Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(
            status.success(),
            "exit after shutdown must be status 0, got {status}"
        );
    }
}

/// 0-based (line, UTF-16 character) of the first occurrence of `needle`
/// (plus `delta` characters) in `text`.
fn pos_of(text: &str, needle: &str, delta: usize) -> Value {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in fixture"));
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let ch: usize = text[line_start..at].encode_utf16().count() + delta;
    json!({"line": line, "character": ch})
}

fn line_of(text: &str, needle: &str) -> u64 {
    text[..text.find(needle).unwrap()].matches('\n').count() as u64
}

fn td(uri: &str) -> Value {
    json!({"uri": uri})
}

#[test]
fn lifecycle_capabilities_and_unknown_methods() {
    let mut c = Client::start();
    let init = c.initialize(json!({}), Value::Null);
    let caps = &init["capabilities"];
    assert_eq!(
        caps["positionEncoding"], "utf-16",
        "no utf-8 offered: utf-16"
    );
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(caps["definitionProvider"], true);
    assert_eq!(caps["documentSymbolProvider"], true);
    assert_eq!(caps["inlayHintProvider"], true);
    assert_eq!(init["serverInfo"]["name"], "warpscope");

    // Unknown request: MethodNotFound, and the server goes on.
    let id = c.request_async("warpscope/doesNotExist", json!({}));
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // Unknown notification: ignored.
    c.notify("$/somethingElse", json!({"x": 1}));
    // Malformed params: InvalidParams, not a crash.
    let id = c.request_async("textDocument/hover", json!({"textDocument": 5}));
    assert_eq!(c.response(id)["error"]["code"], -32602);
    // A request about a document that is not open: null.
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": td("file:///nope.ptx"), "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r, Value::Null);
    // A message that is valid JSON but not JSON-RPC we know (no method, no id): survives.
    c.send_raw(r#"{"jsonrpc":"2.0","id":9999,"result":null}"#);
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": td("file:///nope.ptx")}),
    );
    assert_eq!(r, Value::Null);
    c.shutdown();
}

#[test]
fn utf8_is_negotiated_when_offered() {
    let mut c = Client::start();
    let init = c.initialize(
        json!({"general": {"positionEncodings": ["utf-32", "utf-8", "utf-16"]}}),
        Value::Null,
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    c.shutdown();
}

#[test]
fn requests_after_shutdown_are_refused_and_exit_without_shutdown_is_status_1() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.request("shutdown", Value::Null);
    let id = c.request_async(
        "textDocument/documentSymbol",
        json!({"textDocument": td(URI)}),
    );
    assert_eq!(c.response(id)["error"]["code"], -32600);
    c.notify("exit", Value::Null);
    assert!(c.child.wait().unwrap().success());

    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.notify("exit", Value::Null);
    assert_eq!(c.child.wait().unwrap().code(), Some(1));
}

#[test]
fn cancelled_requests_are_answered_once() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    let mut ids = Vec::new();
    for _ in 0..20 {
        let id = c.request_async(
            "textDocument/documentSymbol",
            json!({"textDocument": td(URI)}),
        );
        c.notify("$/cancelRequest", json!({"id": id}));
        ids.push(id);
    }
    // A cancel for a request that never existed is ignored.
    c.notify("$/cancelRequest", json!({"id": 424242}));
    for id in ids {
        let r = c.response(id);
        // Honoured (RequestCancelled) or already answered: never both, never lost.
        match r.get("error") {
            Some(e) => assert_eq!(e["code"], -32800, "{r}"),
            None => assert!(r["result"].is_array(), "{r}"),
        }
        assert!(
            !c.backlog
                .iter()
                .any(|m| m["id"] == json!(id) && m.get("method").is_none()),
            "answered twice"
        );
    }
    c.shutdown();
}

#[test]
fn malformed_ptx_never_stops_the_server() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    let nasty = [
        "",
        "{",
        "}}}}",
        ".entry",
        ".visible .entry k( { ld.global.f32 %f1, [; }",
        "\u{0}\u{1}\u{2}\u{ff}\u{10FFFF}",
        ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; ld.global.f32 %f1, [%rd1+; ret;",
        &"(".repeat(100_000),
        &"[%r1+".repeat(10_000),
        &FIXTURE[..FIXTURE.len() / 2],
    ];
    for (i, text) in nasty.iter().enumerate() {
        let uri = format!("file:///tmp/warpscope-lsp-test/nasty{i}.ptx");
        c.open(&uri, text);
        let _ = c.diagnostics(&uri, 1);
        for method in ["textDocument/documentSymbol", "textDocument/inlayHint"] {
            let id = c.request_async(
                method,
                json!({"textDocument": td(&uri), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}}),
            );
            let r = c.response(id);
            assert!(r.get("error").is_none(), "{method} on nasty{i}: {r}");
        }
        for (line, ch) in [(0, 0), (0, 3), (5, 200), (1000, 1000)] {
            let p = json!({"textDocument": td(&uri), "position": {"line": line, "character": ch}});
            let id = c.request_async("textDocument/hover", p.clone());
            assert!(c.response(id).get("error").is_none());
            let id = c.request_async("textDocument/definition", p);
            assert!(c.response(id).get("error").is_none());
        }
    }
    c.shutdown();
}

const UNICODE: &str = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t/* é𝄞 */ bogus !!! ;\n\tret;\n}\n";

#[test]
fn diagnostics_ranges_and_edits_use_utf16_by_default() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, UNICODE);
    let d = c.diagnostics(URI, 1);
    let e = d
        .iter()
        .find(|d| d["code"] == "E0001")
        .unwrap_or_else(|| panic!("no E0001: {d:?}"));
    // `;` is UTF-16 column 21 (é is one unit, 𝄞 two), byte column 24.
    assert_eq!(e["range"]["start"], pos_of(UNICODE, "!!! ;", 4), "{e}");
    assert_eq!(e["range"]["start"]["character"], 21);
    assert_eq!(e["severity"], 1);
    assert_eq!(e["source"], "warpscope");
    assert_eq!(e["data"]["name"], "syntax-error", "{e}");

    // Replace `bogus !!! ;` by `ret;` with a UTF-16 range: the file is clean.
    let start = pos_of(UNICODE, "bogus", 0);
    let end = pos_of(UNICODE, "!!! ;", 5);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2},
               "contentChanges": [{"range": {"start": start, "end": end}, "text": "ret;"}]}),
    );
    assert_eq!(c.diagnostics(URI, 2), Vec::<Value>::new());

    // A full-text change brings the error back.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"text": UNICODE}]}),
    );
    assert_eq!(c.diagnostics(URI, 3).len(), d.len());
    c.shutdown();
}

#[test]
fn diagnostics_ranges_use_bytes_when_utf8_is_negotiated() {
    let mut c = Client::start();
    c.initialize(
        json!({"general": {"positionEncodings": ["utf-8"]}}),
        Value::Null,
    );
    c.open(URI, UNICODE);
    let d = c.diagnostics(URI, 1);
    let e = d.iter().find(|d| d["code"] == "E0001").unwrap();
    assert_eq!(e["range"]["start"]["character"], 24, "{e}");
    // Hover over the error explains the code.
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": td(URI), "position": {"line": 5, "character": 24}}),
    );
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("E0001 syntax-error"), "{text}");
    c.shutdown();
}

#[test]
fn document_symbols_list_kernels_with_parameters_and_labels() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    let syms = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": td(URI)}),
    );
    let syms = syms.as_array().unwrap();
    assert_eq!(syms.len(), 1, "{syms:?}");
    let k = &syms[0];
    assert_eq!(k["name"], "_Z6stridePfS_i");
    assert_eq!(k["kind"], 12, "Function");
    assert_eq!(k["detail"], ".entry stride(float*, float*, int)");
    assert_eq!(
        k["selectionRange"]["start"],
        pos_of(FIXTURE, "_Z6stridePfS_i(", 0)
    );
    assert_eq!(
        k["range"]["start"]["line"],
        line_of(FIXTURE, ".visible .entry")
    );
    assert_eq!(
        k["range"]["end"]["line"],
        FIXTURE.lines().count() as u64 - 1
    );
    let children: Vec<&str> = k["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        children,
        [
            "_Z6stridePfS_i_param_0",
            "_Z6stridePfS_i_param_1",
            "_Z6stridePfS_i_param_2",
            "$L__BB0_2"
        ]
    );
    c.shutdown();
}

fn definition_of(c: &mut Client, text: &str, needle: &str, delta: usize) -> Value {
    c.request(
        "textDocument/definition",
        json!({"textDocument": td(URI), "position": pos_of(text, needle, delta)}),
    )
}

fn hover_text(c: &mut Client, text: &str, needle: &str, delta: usize) -> String {
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": td(URI), "position": pos_of(text, needle, delta)}),
    );
    h["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("no hover at {needle}: {h}"))
        .to_string()
}

#[test]
fn definition_of_registers_labels_and_parameters() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    // `%rd5` in `[%rd5]` → the range declaration `%rd<9>` (its `%rd`).
    let d = definition_of(&mut c, FIXTURE, "[%rd5]", 2);
    assert_eq!(d["uri"], URI);
    assert_eq!(d["range"]["start"], pos_of(FIXTURE, "%rd<9>", 0), "{d}");
    // The guard predicate `@%p1` → `%p<2>`.
    let d = definition_of(&mut c, FIXTURE, "@%p1", 2);
    assert_eq!(d["range"]["start"], pos_of(FIXTURE, "%p<2>", 0), "{d}");
    // The branch target → the label.
    let d = definition_of(&mut c, FIXTURE, "bra \t$L__BB0_2", 7);
    assert_eq!(d["range"]["start"], pos_of(FIXTURE, "$L__BB0_2:", 0), "{d}");
    // The parameter in `ld.param` → its declaration in the kernel's header.
    let d = definition_of(&mut c, FIXTURE, "[_Z6stridePfS_i_param_1]", 3);
    assert_eq!(
        d["range"]["start"],
        pos_of(FIXTURE, "_Z6stridePfS_i_param_1,", 0),
        "{d}"
    );
    // On a declaration: itself.
    let d = definition_of(&mut c, FIXTURE, "$L__BB0_2:", 1);
    assert_eq!(d["range"]["start"], pos_of(FIXTURE, "$L__BB0_2:", 0), "{d}");
    // A special register has no declaration; whitespace has nothing.
    assert_eq!(definition_of(&mut c, FIXTURE, "%tid.x", 1), Value::Null);
    assert_eq!(definition_of(&mut c, FIXTURE, "\n{\n", 0), Value::Null);
    c.shutdown();
}

const CALLS: &str = r#".version 8.5
.target sm_90
.address_size 64

.global .align 4 .b32 counter;

.func (.param .b32 ret) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	add.s32 %r2, %r1, %r1;
	st.param.b32 [ret], %r2;
	ret;
}

.visible .entry k()
{
	.reg .b32 %q<3>;
	.reg .b64 %a;
	.shared .align 4 .b32 tile[32];
	mov.u64 %a, tile;
	mov.u64 %a, counter;
	{
		.param .b32 arg;
		.param .b32 res;
		st.param.b32 [arg], %q1;
		call (res), twice, (arg);
		ld.param.b32 %q2, [res];
	}
	ret;
}
"#;

#[test]
fn definition_and_hover_for_variables_functions_and_call_arguments() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, CALLS);
    assert_eq!(
        c.diagnostics(URI, 1),
        Vec::<Value>::new(),
        "the fixture is valid PTX"
    );
    let d = definition_of(&mut c, CALLS, "%a, tile", 5);
    assert_eq!(d["range"]["start"], pos_of(CALLS, "tile[32]", 0), "{d}");
    let d = definition_of(&mut c, CALLS, "%a, counter", 5);
    assert_eq!(d["range"]["start"], pos_of(CALLS, "counter;", 0), "{d}");
    let d = definition_of(&mut c, CALLS, "twice, (arg)", 1);
    assert_eq!(d["range"]["start"], pos_of(CALLS, "twice(", 0), "{d}");
    let d = definition_of(&mut c, CALLS, "(arg);", 1);
    assert_eq!(d["range"]["start"], pos_of(CALLS, "arg;", 0), "{d}");
    let d = definition_of(&mut c, CALLS, "[ret]", 1);
    assert_eq!(d["range"]["start"], pos_of(CALLS, "ret) twice", 0), "{d}");

    let h = hover_text(&mut c, CALLS, "%a, tile", 5);
    assert!(h.starts_with("variable `tile`: `.shared .b32`"), "{h}");
    assert!(
        h.contains("```ptx\n.shared .align 4 .b32 tile[32];\n```"),
        "{h}"
    );
    let h = hover_text(&mut c, CALLS, "[x]", 1);
    assert!(h.starts_with("parameter `x`: `.param .b32`"), "{h}");
    let h = hover_text(&mut c, CALLS, "%q1;", 1);
    assert!(h.starts_with("register `%q1`: `.b32`"), "{h}");
    assert!(h.contains("```ptx\n.reg .b32 %q<3>;\n```"), "{h}");
    let h = hover_text(&mut c, CALLS, "twice, (arg)", 1);
    assert!(h.starts_with("function `twice`"), "{h}");
    assert!(
        h.contains(".func (.param .b32 ret) twice(.param .b32 x)"),
        "{h}"
    );
    c.shutdown();
}

/// Every `.ptx` fixture of the repository: the server's diagnostics equal
/// `warpscope check --format json`'s — code, level, message, notes, help and
/// range (UTF-8 negotiated so that columns are bytes, as `check`'s are), with
/// the configuration discovered from the file's own directory.
#[test]
fn diagnostics_are_the_same_as_check() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut stack = vec![
        root.join("tests/fixtures"),
        root.join("tests/nvim/fixtures"),
    ];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10, "fixtures: {files:?}");
    let mut c = Client::start();
    c.initialize(
        json!({"general": {"positionEncodings": ["utf-8"]}}),
        Value::Null,
    );
    let mut compared = 0;
    for path in &files {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(["check", "--format", "json"])
            .arg(path)
            .output()
            .unwrap();
        let Ok(report) = serde_json::from_slice::<Value>(&out.stdout) else {
            // `check` refused the file's configuration (a fixture of a bad
            // config): the server reports that instead, tested below.
            continue;
        };
        let text = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&text).into_owned();
        let uri = format!("file://{}", path.display()).replace(' ', "%20");
        c.open(&uri, &text);
        let got = c.diagnostics(&uri, 1);
        let want: Vec<&Value> = report["diagnostics"].as_array().unwrap().iter().collect();
        assert_eq!(
            got.len(),
            want.len(),
            "{}: server {got:#?}\ncheck {want:#?}",
            path.display()
        );
        for (g, w) in got.iter().zip(&want) {
            let ctx = format!("{}: server {g:#}\ncheck {w:#}", path.display());
            assert_eq!(g["code"], w["code"], "{ctx}");
            let sev = match w["severity"].as_str().unwrap() {
                "error" => 1,
                "warning" => 2,
                _ => 3,
            };
            assert_eq!(g["severity"], sev, "{ctx}");
            assert_eq!(
                g["range"]["start"]["line"].as_u64().unwrap() + 1,
                w["line"].as_u64().unwrap(),
                "{ctx}"
            );
            assert_eq!(
                g["range"]["start"]["character"].as_u64().unwrap() + 1,
                w["column"].as_u64().unwrap(),
                "{ctx}"
            );
            assert_eq!(
                g["range"]["end"]["line"].as_u64().unwrap() + 1,
                w["end_line"].as_u64().unwrap(),
                "{ctx}"
            );
            assert_eq!(
                g["range"]["end"]["character"].as_u64().unwrap() + 1,
                w["end_column"].as_u64().unwrap(),
                "{ctx}"
            );
            let msg = g["message"].as_str().unwrap();
            assert!(msg.starts_with(w["message"].as_str().unwrap()), "{ctx}");
            for n in w["notes"].as_array().unwrap() {
                assert!(
                    msg.contains(&format!("\nnote: {}", n.as_str().unwrap())),
                    "{ctx}"
                );
            }
            if let Some(h) = w["help"].as_str() {
                assert!(msg.ends_with(&format!("\nhelp: {h}")), "{ctx}");
            }
            assert_eq!(g["data"]["name"], w["name"], "{ctx}");
        }
        compared += want.len();
        c.notify("textDocument/didClose", json!({"textDocument": td(&uri)}));
    }
    assert!(compared >= 10, "only {compared} diagnostics compared");
    c.shutdown();
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-lsp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn configuration_is_discovered_from_the_documents_directory_and_reread_on_save() {
    let dir = scratch("config");
    std::fs::write(
        dir.join("warpscope.toml"),
        "[lints]\nuncoalesced-access = \"deny\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let file = dir.join("sub/k.ptx");
    std::fs::write(&file, FIXTURE).unwrap();
    let uri = format!("file://{}", file.display());
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(&uri, FIXTURE);
    let d = c.diagnostics(&uri, 1);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "W101");
    assert_eq!(d[0]["severity"], 1, "deny in warpscope.toml: an error");

    // The user allows the lint and saves the document: re-read.
    std::fs::write(
        dir.join("warpscope.toml"),
        "[lints]\nuncoalesced-access = \"allow\"\n",
    )
    .unwrap();
    c.notify("textDocument/didSave", json!({"textDocument": td(&uri)}));
    assert_eq!(c.diagnostics(&uri, 1), Vec::<Value>::new());

    // A broken configuration: reported, with its location, and defaults used.
    std::fs::write(
        dir.join("warpscope.toml"),
        "[lints]\nno-such-lint = \"deny\"\n",
    )
    .unwrap();
    c.notify("textDocument/didSave", json!({"textDocument": td(&uri)}));
    let d = c.diagnostics(&uri, 1);
    assert_eq!(d.len(), 2, "{d:#?}");
    assert_eq!(d[0]["code"], "config");
    assert_eq!(d[0]["severity"], 1);
    let rel = &d[0]["relatedInformation"][0];
    assert!(
        rel["location"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("/warpscope.toml"),
        "{rel}"
    );
    assert_eq!(rel["location"]["range"]["start"]["line"], 1, "{rel}");
    assert_eq!(d[1]["code"], "W101");
    assert_eq!(d[1]["severity"], 2, "defaults: a warning");
    c.shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hover_on_memory_instructions_shows_the_analysis() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    // Lane i loads 4 bytes at 4*i: 128 contiguous bytes, 4 sectors in 1 line.
    let h = hover_text(&mut c, FIXTURE, "ld.global.f32", 3);
    assert!(h.starts_with("**`ld.global.f32`** — global load, 32 bits per lane (kernel `stride(float*, float*, int)`)"), "{h}");
    assert!(
        h.contains("| pattern | **coalesced** (stride 4 B) |"),
        "{h}"
    );
    assert!(
        h.contains("| lane address | `4*lane + _Z6stridePfS_i_param_0"),
        "{h}"
    );
    assert!(h.contains("| L1 lines / request | 1 (ideal 1) |"), "{h}");
    assert!(h.contains("| sectors / request | 4 (ideal 4) |"), "{h}");
    assert!(h.contains("| active lanes | 32 of 32 |"), "{h}");
    assert!(h.contains("| CUDA source | `kernels.cu:5:5` |"), "{h}");
    // Lane i stores 4 bytes at 128*i: one sector and one line per lane.
    let h = hover_text(&mut c, FIXTURE, "st.global.f32", 0);
    assert!(
        h.contains("| pattern | **strided** (stride 128 B) |"),
        "{h}"
    );
    assert!(h.contains("| L1 lines / request | 32 (ideal 1) |"), "{h}");
    assert!(h.contains("| sectors / request | 32 (ideal 4) |"), "{h}");
    assert!(h.contains("| CUDA source | `kernels.cu:6:5` |"), "{h}");
    // The lint's explanation comes with it (the diagnostic covers the line).
    assert!(h.contains("**W101 uncoalesced-access**"), "{h}");
    // A register inside the access: its declaration first, then the access.
    let h = hover_text(&mut c, FIXTURE, "[%rd8]", 2);
    assert!(h.starts_with("register `%rd8`: `.b64`"), "{h}");
    assert!(h.contains("| pattern | **strided**"), "{h}");
    // Not a memory access: no analysis table.
    let h = hover_text(&mut c, FIXTURE, "%r3, %ctaid.x", 6);
    assert!(h.contains("special register"), "{h}");
    assert!(!h.contains("| pattern |"), "{h}");
    c.shutdown();
}

fn all_hints(c: &mut Client, uri: &str) -> Vec<Value> {
    let r = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": td(uri), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9999, "character": 0}}}),
    );
    r.as_array().unwrap().clone()
}

#[test]
fn inlay_hints_show_sectors_per_request_and_can_be_switched_off() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    let hints = all_hints(&mut c, URI);
    assert_eq!(hints.len(), 2, "{hints:#?}");
    let ld = line_of(FIXTURE, "ld.global.f32");
    let st = line_of(FIXTURE, "st.global.f32");
    let end_of = |l: u64| {
        FIXTURE
            .lines()
            .nth(l as usize)
            .unwrap()
            .encode_utf16()
            .count() as u64
    };
    assert_eq!(
        hints[0]["position"],
        json!({"line": ld, "character": end_of(ld)})
    );
    assert_eq!(hints[0]["label"], "4 sectors/req (ideal 4)");
    assert_eq!(
        hints[1]["position"],
        json!({"line": st, "character": end_of(st)})
    );
    assert_eq!(hints[1]["label"], "32 sectors/req (ideal 4)");
    // Only the requested range.
    let r = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": td(URI), "range": {"start": {"line": 0, "character": 0}, "end": {"line": ld + 1, "character": 0}}}),
    );
    assert_eq!(r.as_array().unwrap().len(), 1);
    // Switched off by workspace configuration, and on again.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"warpscope": {"inlayHints": {"enable": false}}}}),
    );
    assert_eq!(all_hints(&mut c, URI), Vec::<Value>::new());
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"warpscope": {"inlayHints": {"enable": true}}}}),
    );
    assert_eq!(all_hints(&mut c, URI).len(), 2);
    c.shutdown();

    // Switched off by initializationOptions.
    let mut c = Client::start();
    c.initialize(json!({}), json!({"inlayHints": {"enable": false}}));
    c.open(URI, FIXTURE);
    assert_eq!(all_hints(&mut c, URI), Vec::<Value>::new());
    c.shutdown();
}

#[test]
fn settings_are_pulled_when_the_client_supports_workspace_configuration() {
    let mut c = Client::start();
    c.initialize(json!({"workspace": {"configuration": true}}), Value::Null);
    // The server asks for the `warpscope` section.
    let ask = loop {
        let m = c.recv();
        if m["method"] == "workspace/configuration" {
            break m;
        }
        c.backlog.push(m);
    };
    assert_eq!(ask["params"]["items"][0]["section"], "warpscope");
    c.send(
        json!({"jsonrpc": "2.0", "id": ask["id"], "result": [{"inlayHints": {"enable": false}}]}),
    );
    c.open(URI, FIXTURE);
    assert_eq!(all_hints(&mut c, URI), Vec::<Value>::new());
    c.shutdown();
}

#[test]
fn edits_reanalyse_the_document() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    assert_eq!(c.diagnostics(URI, 1).len(), 1);
    // Make the store coalesced: stride 128 → 4 (an incremental edit).
    let at = pos_of(FIXTURE, "%r1, 128;", 5);
    let end = json!({"line": at["line"], "character": at["character"].as_u64().unwrap() + 3});
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": {"start": at, "end": end}, "text": "4"}]}),
    );
    assert_eq!(c.diagnostics(URI, 2), Vec::<Value>::new());
    let hints = all_hints(&mut c, URI);
    assert_eq!(hints[1]["label"], "4 sectors/req (ideal 4)");
    c.shutdown();
}

#[test]
fn messages_that_are_not_json_rpc_are_skipped() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.send_raw("this is not json");
    c.send_raw(r#"{"jsonrpc": "2.0", "id": {"an": "object"}, "method": "x"}"#);
    // A header block without Content-Length.
    c.stdin
        .write_all(b"Content-Type: text/plain\r\n\r\n")
        .unwrap();
    c.open(URI, FIXTURE);
    assert_eq!(c.diagnostics(URI, 1).len(), 1);
    c.shutdown();
}

#[test]
fn requests_before_initialize_are_refused() {
    let mut c = Client::start();
    let id = c.request_async("textDocument/hover", json!({}));
    assert_eq!(c.response(id)["error"]["code"], -32002);
    c.notify("textDocument/didOpen", json!({}));
    c.initialize(json!({}), Value::Null);
    c.shutdown();
}

#[test]
fn hover_on_registers_shows_the_inferred_value() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    // The global thread index: the lane plus the warp's uniform part.
    let h = hover_text(&mut c, FIXTURE, "%r1, %r3, %r4", 1);
    assert!(h.starts_with("register `%r1`: `.b32`"), "{h}");
    assert!(
        h.contains(
            "**value after this instruction** (exact per lane): `lane + tid0.x + ctaid.x*ntid.x`"
        ),
        "{h}"
    );
    // The store's address, used in `[%rd8]`.
    let h = hover_text(&mut c, FIXTURE, "[%rd8]", 2);
    assert!(
        h.contains("**value before this statement** (exact per lane): `128*lane + _Z6stridePfS_i_param_1 + 128*tid0.x + 128*ctaid.x*ntid.x`"),
        "{h}"
    );
    assert!(h.contains("active lanes: 32 of 32"), "{h}");
    // Outside a kernel (a `.func`): the declaration only.
    c.open("file:///tmp/warpscope-lsp-test/calls.ptx", CALLS);
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": td("file:///tmp/warpscope-lsp-test/calls.ptx"), "position": pos_of(CALLS, "%r2, %r1, %r1", 1)}),
    );
    let h = r["contents"]["value"].as_str().unwrap();
    assert!(h.starts_with("register `%r2`: `.b32`"), "{h}");
    assert!(!h.contains("value"), "{h}");
    c.shutdown();
}

/// Applies an LSP edit (UTF-16 positions, valid ones) to `text`, as a client
/// holds its buffer.
fn apply_utf16(text: &mut String, (l0, c0): (usize, usize), (l1, c1): (usize, usize), new: &str) {
    let offset = |text: &str, line: usize, ch: usize| -> usize {
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let mut units = 0;
        for (i, c) in text[start..].char_indices() {
            if units >= ch || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let a = offset(text, l0, c0);
    let b = offset(text, l1, c1);
    text.replace_range(a..b, new);
}

/// Random valid (line, UTF-16 character) positions of `text` that do not
/// split a surrogate pair.
fn valid_position(text: &str, r: u64) -> (usize, usize) {
    let lines: Vec<&str> = text.split('\n').collect();
    let line = (r % lines.len() as u64) as usize;
    let mut cols = vec![0];
    let mut u = 0;
    for c in lines[line].chars() {
        u += c.len_utf16();
        cols.push(u);
    }
    (line, cols[((r >> 20) % cols.len() as u64) as usize])
}

#[test]
fn many_random_incremental_edits_keep_the_server_in_sync_with_the_client() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    let mut text = FIXTURE.replace("// .globl", "// é𝄞 .globl");
    c.open(URI, &text);
    c.diagnostics(URI, 1);
    let pieces = [
        "",
        "x",
        "é",
        "𝄞",
        "\n",
        "\r\n",
        ";",
        "{",
        "}",
        "%r1",
        "[%rd5]",
        "ld.global.f32 %f1, [%rd5];\n",
        "$L__BB0_2",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for version in 2..=150 {
        let mut a = valid_position(&text, next());
        let mut b = valid_position(&text, next());
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        if next() % 3 == 0 {
            b = a; // an insertion
        }
        let new = pieces[(next() % pieces.len() as u64) as usize];
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version},
                   "contentChanges": [{"range": {"start": {"line": a.0, "character": a.1}, "end": {"line": b.0, "character": b.1}}, "text": new}]}),
        );
        apply_utf16(&mut text, a, b, new);
        if version % 10 == 0 {
            let p = valid_position(&text, next());
            let pos = json!({"line": p.0, "character": p.1});
            c.request(
                "textDocument/hover",
                json!({"textDocument": td(URI), "position": pos}),
            );
            c.request(
                "textDocument/definition",
                json!({"textDocument": td(URI), "position": pos}),
            );
        }
    }
    // The server's document is the client's: the same text opened fresh
    // gets the same diagnostics.
    let edited = c.diagnostics(URI, 150);
    let fresh_uri = "file:///tmp/warpscope-lsp-test/fresh.ptx";
    c.open(fresh_uri, &text);
    let fresh = c.diagnostics(fresh_uri, 1);
    assert_eq!(edited, fresh, "text after the edits:\n{text}");
    let s1 = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": td(URI)}),
    );
    let s2 = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": td(fresh_uri)}),
    );
    assert_eq!(s1, s2);
    c.shutdown();
}

#[test]
fn diagnostics_are_published_even_when_a_request_analysed_the_edit_first() {
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(URI, FIXTURE);
    c.diagnostics(URI, 1);
    for version in 2..=20 {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": FIXTURE}]}),
        );
        // Queued right behind the edit: it analyses the new text.
        c.request(
            "textDocument/inlayHint",
            json!({"textDocument": td(URI),
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}}),
        );
        assert_eq!(c.diagnostics(URI, version).len(), 1, "version {version}");
    }
    c.shutdown();
}

#[test]
fn hover_quotes_the_cuda_source_line_when_the_file_is_beside_the_ptx() {
    let dir = scratch("cuda-source");
    let cu = "__global__ void stride(float* a, float* b, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n    float v = a[i];\n    b[i * 32] = v;\n}\n";
    // `.loc 1 5 5` and `.loc 1 6 5` name lines 5 and 6 of kernels.cu.
    let cu = format!("// kernels.cu\n{cu}");
    std::fs::write(dir.join("kernels.cu"), &cu).unwrap();
    let file = dir.join("k.ptx");
    std::fs::write(&file, FIXTURE).unwrap();
    let uri = format!("file://{}", file.display());
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(&uri, FIXTURE);
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": td(&uri), "position": pos_of(FIXTURE, "st.global.f32", 0)}),
    );
    let h = h["contents"]["value"].as_str().unwrap();
    assert!(h.contains("| CUDA source | `kernels.cu:6:5` |"), "{h}");
    assert!(h.contains("```cuda\nb[i * 32] = v;\n```"), "{h}");
    c.shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A SASS listing opened in the editor: no front-end diagnostic, the lints
/// of its accesses (the gathers and scatters through the index array, as for
/// its PTX), and hovering a memory instruction shows its access.
#[test]
fn sass_listing_hover_shows_the_access() {
    let text = include_str!("sass/indirect.sm_90.nvdisasm.sass");
    let uri = "file:///tmp/warpscope-lsp-test/indirect.sm_90.sass";
    let mut c = Client::start();
    c.initialize(json!({}), Value::Null);
    c.open(uri, text);
    let d = c.diagnostics(uri, 1);
    assert_eq!(d.len(), 4, "{d:?}");
    assert!(d.iter().all(|x| x["code"] == "W104"), "{d:?}");
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": td(uri), "position": pos_of(text, "LDG.E.64", 2)}),
    );
    let v = h["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("no hover: {h}"));
    assert!(v.contains("random"), "{v}");
    c.shutdown();
}

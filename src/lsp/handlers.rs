//! Requests and notifications: protocol in, library facts out.

use super::backend::{self, Facts, SymbolNode};
use super::index::NameKind;
use super::position::{Encoding, LineIndex};
use super::Server;
use lsp_server::{ErrorCode, Notification, Request, Response};
use lsp_types as lt;
use serde::de::DeserializeOwned;
use std::fmt::Write as _;
use warpscope::analysis::{Access, KernelAnalysis, Space};
use warpscope::diagnostic::{Diagnostic, Severity};
use warpscope::source::Span;

/// What the server offers.
pub fn capabilities(enc: Encoding) -> lt::ServerCapabilities {
    lt::ServerCapabilities {
        position_encoding: Some(match enc {
            Encoding::Utf8 => lt::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lt::PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(lt::TextDocumentSyncCapability::Options(
            lt::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lt::TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(lt::TextDocumentSyncSaveOptions::Supported(true)),
            },
        )),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lt::OneOf::Left(true)),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        inlay_hint_provider: Some(lt::OneOf::Left(true)),
        ..Default::default()
    }
}

fn params<P: DeserializeOwned>(req: &Request) -> Result<P, Response> {
    serde_json::from_value(req.params.clone()).map_err(|e| {
        Response::new_err(
            req.id.clone(),
            ErrorCode::InvalidParams as i32,
            format!("invalid params for {}: {e}", req.method),
        )
    })
}

fn ok(req: &Request, v: impl serde::Serialize) -> Response {
    Response::new_ok(req.id.clone(), v)
}

/// Answers one request.
pub fn request(s: &mut Server, req: Request) -> Response {
    let r = match req.method.as_str() {
        "textDocument/hover" => params(&req).map(|p| ok(&req, hover(s, p))),
        "textDocument/definition" => params(&req).map(|p| ok(&req, definition(s, p))),
        "textDocument/documentSymbol" => params(&req).map(|p| ok(&req, document_symbols(s, p))),
        "textDocument/inlayHint" => params(&req).map(|p| ok(&req, inlay_hints(s, p))),
        _ => Err(Response::new_err(
            req.id.clone(),
            ErrorCode::MethodNotFound as i32,
            format!("warpscope does not handle {}", req.method),
        )),
    };
    r.unwrap_or_else(|e| e)
}

fn note<P: DeserializeOwned>(n: &Notification) -> Option<P> {
    serde_json::from_value(n.params.clone()).ok()
}

/// Handles one notification (unknown ones and malformed ones are ignored).
pub fn notification(s: &mut Server, n: Notification) {
    match n.method.as_str() {
        "textDocument/didOpen" => {
            if let Some(p) = note::<lt::DidOpenTextDocumentParams>(&n) {
                let d = p.text_document;
                s.docs.open(d.uri, d.version, d.text);
            }
        }
        "textDocument/didChange" => {
            if let Some(p) = note::<lt::DidChangeTextDocumentParams>(&n) {
                let enc = s.encoding;
                if let Some(doc) = s.docs.get_mut(&p.text_document.uri) {
                    doc.apply(p.text_document.version, p.content_changes, enc);
                }
            }
        }
        "textDocument/didSave" => {
            if let Some(p) = note::<lt::DidSaveTextDocumentParams>(&n) {
                if let Some(doc) = s.docs.get_mut(&p.text_document.uri) {
                    if let Some(text) = p.text {
                        doc.apply(doc.version, vec![full_change(text)], Encoding::Utf8);
                    }
                    doc.rediscover_config();
                }
            }
        }
        "textDocument/didClose" => {
            if let Some(p) = note::<lt::DidCloseTextDocumentParams>(&n) {
                s.docs.close(&p.text_document.uri);
                let clear = lt::PublishDiagnosticsParams {
                    uri: p.text_document.uri,
                    diagnostics: Vec::new(),
                    version: None,
                };
                s.notify("textDocument/publishDiagnostics", clear);
            }
        }
        "workspace/didChangeConfiguration" => {
            let before = s.settings.clone();
            if let Some(settings) = n.params.get("settings").filter(|v| v.is_object()) {
                s.settings.update(settings);
            } else if s.pull_config {
                s.request_configuration();
            }
            if s.settings != before {
                s.refresh_inlay_hints();
            }
        }
        // `initialized`, `$/setTrace`, `workspace/didChangeWatchedFiles`, …
        _ => {}
    }
}

fn full_change(text: String) -> lt::TextDocumentContentChangeEvent {
    lt::TextDocumentContentChangeEvent {
        range: None,
        range_length: None,
        text,
    }
}

/// Analyses a document (if stale) and publishes its diagnostics.
pub fn publish(s: &mut Server, uri: &lt::Uri) {
    let enc = s.encoding;
    let explain_url = s.settings.explain_url.clone();
    let Some(doc) = s.docs.get_mut(uri) else {
        return;
    };
    let version = doc.version;
    doc.unpublished = false;
    doc.facts();
    let facts = doc.facts.as_ref().expect("analysed above");
    let mut out: Vec<lt::Diagnostic> = facts
        .diagnostics
        .iter()
        .map(|d| to_lsp_diagnostic(d, uri, &doc.text, &doc.lines, enc, explain_url.as_deref()))
        .collect();
    if let Some(e) = &doc.config.error {
        out.insert(0, config_error(e, enc));
    }
    let p = lt::PublishDiagnosticsParams {
        uri: uri.clone(),
        diagnostics: out,
        version: Some(version),
    };
    s.notify("textDocument/publishDiagnostics", p);
}

/// A configuration file `check` would refuse: reported at the top of the
/// document, with the place in the configuration file as related
/// information; the document is analysed with the defaults meanwhile.
fn config_error(e: &warpscope::config::ConfigError, enc: Encoding) -> lt::Diagnostic {
    let related = super::document::path_uri(&e.path).map(|uri| {
        let lines = LineIndex::new(&e.text);
        let range = e
            .span
            .map(|sp| lines.range(&e.text, sp, enc))
            .unwrap_or_default();
        vec![lt::DiagnosticRelatedInformation {
            location: lt::Location { uri, range },
            message: e.message.clone(),
        }]
    });
    lt::Diagnostic {
        range: lt::Range::default(),
        severity: Some(lt::DiagnosticSeverity::ERROR),
        code: Some(lt::NumberOrString::String("config".into())),
        source: Some("warpscope".into()),
        message: format!(
            "invalid configuration, defaults used instead ({}: {}); `warpscope check` refuses to run with it",
            e.path.display(),
            e.message
        ),
        related_information: related,
        ..Default::default()
    }
}

/// One library diagnostic as an LSP diagnostic: same code, level and message
/// as `check`; notes and help appended to the message; secondary labels as
/// related information; the rule's name in `data.name`; the code's
/// explanation in hover over the range; `codeDescription` when an
/// `explainUrl` is set.
pub fn to_lsp_diagnostic(
    d: &Diagnostic,
    uri: &lt::Uri,
    text: &str,
    lines: &LineIndex,
    enc: Encoding,
    explain_url: Option<&str>,
) -> lt::Diagnostic {
    let mut message = d.message.clone();
    if let Some(l) = d.labels.iter().find(|l| l.primary && !l.message.is_empty()) {
        let _ = write!(message, ": {}", l.message);
    }
    for n in &d.notes {
        let _ = write!(message, "\nnote: {n}");
    }
    if let Some(h) = &d.help {
        let _ = write!(message, "\nhelp: {h}");
    }
    let related: Vec<lt::DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter(|l| !l.primary)
        .map(|l| lt::DiagnosticRelatedInformation {
            location: lt::Location {
                uri: uri.clone(),
                range: lines.range(text, l.span, enc),
            },
            message: if l.message.is_empty() {
                "see here".into()
            } else {
                l.message.clone()
            },
        })
        .collect();
    let code_description = explain_url.and_then(|t| {
        let href = t.replace("{code}", d.code).replace("{name}", d.name);
        href.parse::<lt::Uri>()
            .ok()
            .map(|href| lt::CodeDescription { href })
    });
    lt::Diagnostic {
        range: lines.range(text, d.span(), enc),
        severity: Some(match d.severity {
            Severity::Error => lt::DiagnosticSeverity::ERROR,
            Severity::Warning => lt::DiagnosticSeverity::WARNING,
            Severity::Note => lt::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(lt::NumberOrString::String(d.code.to_string())),
        code_description,
        source: Some("warpscope".into()),
        message,
        related_information: if related.is_empty() {
            None
        } else {
            Some(related)
        },
        tags: None,
        // The explanation (`warpscope explain CODE`, a page of text) is shown
        // by hover over the diagnostic, not repeated in every diagnostic: a
        // file with thousands of findings would otherwise publish megabytes.
        data: Some(serde_json::json!({ "name": d.name })),
    }
}

fn hover(s: &mut Server, p: lt::HoverParams) -> Option<lt::Hover> {
    let enc = s.encoding;
    let pos = p.text_document_position_params;
    let doc = s.docs.get_mut(&pos.text_document.uri)?;
    let offset = doc.lines.offset(&doc.text, pos.position, enc);
    doc.facts();
    let facts = doc.facts.as_ref()?;
    let text = &doc.text;
    let mut sections: Vec<String> = Vec::new();
    let mut range: Option<Span> = None;

    if let Some(o) = facts.names.at(offset) {
        if let Some(mut h) = name_hover(facts, text, o) {
            if o.kind == NameKind::Register {
                if let Some(v) = text
                    .get(o.span.range())
                    .and_then(|name| backend::register_value(text, o.span, name, &doc.config))
                {
                    h.push_str(&register_value_text(&v));
                }
            }
            sections.push(h);
            range = Some(o.span);
        }
    }
    if let Some((k, a)) = facts.access_at(offset) {
        let mut h = access_hover(k, a);
        let dir = doc.path.as_deref().and_then(|p| p.parent());
        if let Some(line) = a.source.as_ref().and_then(|src| cuda_source_line(dir, src)) {
            let _ = write!(h, "\n\n```cuda\n{line}\n```");
        }
        sections.push(h);
        range.get_or_insert(a.span);
    }
    for d in facts
        .diagnostics
        .iter()
        .filter(|d| d.span().contains(offset))
    {
        if let Some(x) = backend::explain(d.code) {
            sections.push(format!(
                "**{} {}** — {}\n\n{}",
                d.code, d.name, d.message, x
            ));
        }
    }
    if sections.is_empty() {
        return None;
    }
    Some(lt::Hover {
        contents: lt::HoverContents::Markup(lt::MarkupContent {
            kind: lt::MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range: range.map(|r| doc.lines.range(text, r, enc)),
    })
}

fn name_hover(facts: &Facts, text: &str, o: &super::index::Occurrence) -> Option<String> {
    let name = text.get(o.span.range())?;
    if o.kind == NameKind::SpecialRegister {
        return Some(format!(
            "`{name}`: PTX special register (read-only, never declared)"
        ));
    }
    let info = facts.names.decl_info(o)?;
    let mut out = String::new();
    let _ = write!(out, "{} `{name}`", info.what);
    let mut ty = String::new();
    if let Some(sp) = info
        .space
        .filter(|s| *s != warpscope::syntax::ast::StateSpace::Reg)
    {
        let _ = write!(ty, "{} ", backend::space_directive(sp));
    }
    if info.vector > 1 {
        let _ = write!(ty, ".v{} ", info.vector);
    }
    if let Some(t) = &info.ty {
        let _ = write!(ty, ".{t}");
    }
    let ty = ty.trim();
    if !ty.is_empty() {
        let _ = write!(out, ": `{ty}`");
    }
    if let Some(decl) = text.get(info.decl_span.range()) {
        // A function's whole definition is too long: its header will do.
        let decl = decl.split('{').next().unwrap_or(decl);
        let decl: String = decl.chars().take(400).collect();
        let _ = write!(out, "\n\n```ptx\n{}\n```", decl.trim());
    }
    Some(out)
}

/// The analysis's value of a register, as hover shows it.
fn register_value_text(v: &backend::RegisterValue) -> String {
    let f = &v.facts;
    let when = if v.after {
        "after this instruction"
    } else {
        "before this statement"
    };
    let mut out = format!("\n\n**value {when}** ({}): `{}`", f.kind, f.value);
    if let Some(lanes) = &f.lanes {
        let shown: Vec<String> = lanes.iter().take(8).map(|x| x.to_string()).collect();
        let more = if lanes.len() > 8 { ", …" } else { "" };
        let _ = write!(
            out,
            "\n\nlanes 0..{}: {}{more}",
            shown.len().saturating_sub(1),
            shown.join(", ")
        );
    }
    let _ = write!(out, "\n\nactive lanes: {} of 32", f.active.count_ones());
    if f.active != u32::MAX {
        let _ = write!(out, " (mask `{:#010x}`)", f.active);
    }
    out
}

/// One per-request row of the hover table: `| label | value (ideal i) |`,
/// with `, between min and max` when the figure is a range (the L1 line and
/// sector rows are built alike).
fn per_request_row(out: &mut String, label: &str, value: f64, ideal: f64, (min, max): (f64, f64)) {
    let _ = write!(
        out,
        "| {label} | {} (ideal {})",
        fmt_num(value),
        fmt_num(ideal)
    );
    if min != max {
        let _ = write!(out, ", between {} and {}", fmt_num(min), fmt_num(max));
    }
    let _ = writeln!(out, " |");
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The text of the CUDA source line a `.loc` names, when that file can be
/// read: its path as written in `.file` (absolute, or relative to the PTX
/// file's directory), else its file name beside the PTX file.
fn cuda_source_line(
    dir: Option<&std::path::Path>,
    src: &warpscope::analysis::SourceLocation,
) -> Option<String> {
    let named = std::path::Path::new(&src.file);
    let mut candidates = vec![];
    if named.is_absolute() {
        candidates.push(named.to_path_buf());
    }
    if let Some(dir) = dir {
        candidates.push(dir.join(named));
        if let Some(base) = named.file_name() {
            candidates.push(dir.join(base));
        }
    }
    let path = candidates.into_iter().find(|p| p.is_file())?;
    // A source file, not a device or a huge generated file.
    if std::fs::metadata(&path).ok()?.len() > 16 << 20 {
        return None;
    }
    let text = std::fs::read(&path).ok()?;
    let text = String::from_utf8_lossy(&text);
    let line = text.lines().nth(src.line.checked_sub(1)? as usize)?;
    let line = line.trim();
    (!line.is_empty()).then(|| line.chars().take(300).collect())
}

fn source_location(src: &warpscope::analysis::SourceLocation) -> String {
    if src.column > 0 {
        format!("{}:{}:{}", src.file, src.line, src.column)
    } else {
        format!("{}:{}", src.file, src.line)
    }
}

/// The hover text of one memory access: every figure is the analysis's.
pub fn access_hover(k: &KernelAnalysis, a: &Access) -> String {
    let pr = &a.per_request;
    let op = a.op.as_str();
    let mut out = format!(
        "**`{}`** — {} {op}, {} bits per lane (kernel `{}`)\n\n",
        a.instruction,
        a.space.as_str(),
        a.bits,
        k.demangled
    );
    let _ = write!(
        out,
        "| | |\n|---|---|\n| pattern | **{}**",
        a.pattern.as_str()
    );
    if let Some(st) = a.stride_bytes {
        let _ = write!(out, " (stride {st} B)");
    }
    let _ = writeln!(out, " |");
    let _ = writeln!(
        out,
        "| lane address | `{}` |",
        a.lane_pattern.replace('|', "\\|")
    );
    // An ideal access of the same bytes touches ⌈ideal sectors / 4⌉ lines
    // (four 32-byte sectors per 128-byte line).
    let ideal_lines = (pr.ideal_sectors / 4.0).ceil();
    per_request_row(
        &mut out,
        "L1 lines / request",
        pr.l1_lines,
        ideal_lines,
        (pr.l1_lines_min, pr.l1_lines_max),
    );
    per_request_row(
        &mut out,
        "sectors / request",
        pr.sectors,
        pr.ideal_sectors,
        (pr.sectors_min, pr.sectors_max),
    );
    match pr.active_lanes {
        Some(l) => {
            let _ = writeln!(out, "| active lanes | {} of 32 |", fmt_num(l));
        }
        None => {
            let _ = writeln!(out, "| active lanes | unknown |");
        }
    }
    if let Some(w) = a.shared_wavefronts {
        let _ = writeln!(
            out,
            "| shared-memory wavefronts / request | {} |",
            fmt_num(w)
        );
    }
    if let Some(r) = a.requests {
        let _ = writeln!(out, "| requests / launch | {r} |");
    }
    for d in warpscope::report::access_details(a) {
        let (k, v) = d.split_once(": ").unwrap_or(("", d.as_str()));
        let _ = writeln!(out, "| {k} | {} |", v.replace('|', "\\|"));
    }
    if let Some(src) = &a.source {
        let _ = write!(out, "| CUDA source | `{}`", source_location(src));
        let mut at = src.inlined_at.as_deref();
        while let Some(call) = at {
            let _ = write!(out, ", inlined at `{}`", source_location(call));
            at = call.inlined_at.as_deref();
        }
        let _ = writeln!(out, " |");
    }
    // What the figures rest on: this access's caveats, then the kernel's.
    for c in a.caveats.iter().chain(&k.caveats) {
        let _ = write!(out, "\n- {c}");
    }
    out
}

fn definition(s: &mut Server, p: lt::GotoDefinitionParams) -> Option<lt::GotoDefinitionResponse> {
    let enc = s.encoding;
    let pos = p.text_document_position_params;
    let uri = pos.text_document.uri;
    let doc = s.docs.get_mut(&uri)?;
    let offset = doc.lines.offset(&doc.text, pos.position, enc);
    doc.facts();
    let facts = doc.facts.as_ref()?;
    let def = facts.names.at(offset)?.def?;
    Some(lt::GotoDefinitionResponse::Scalar(lt::Location {
        uri,
        range: doc.lines.range(&doc.text, def, enc),
    }))
}

fn document_symbols(
    s: &mut Server,
    p: lt::DocumentSymbolParams,
) -> Option<lt::DocumentSymbolResponse> {
    let enc = s.encoding;
    let doc = s.docs.get_mut(&p.text_document.uri)?;
    doc.facts();
    let facts = doc.facts.as_ref()?;
    fn conv(n: &SymbolNode, text: &str, lines: &LineIndex, enc: Encoding) -> lt::DocumentSymbol {
        #[allow(deprecated)]
        lt::DocumentSymbol {
            name: if n.name.is_empty() {
                "?".into()
            } else {
                n.name.clone()
            },
            detail: n.detail.clone(),
            kind: n.kind,
            tags: None,
            deprecated: None,
            range: lines.range(text, n.span, enc),
            selection_range: lines.range(text, n.selection, enc),
            children: if n.children.is_empty() {
                None
            } else {
                Some(
                    n.children
                        .iter()
                        .map(|c| conv(c, text, lines, enc))
                        .collect(),
                )
            },
        }
    }
    Some(lt::DocumentSymbolResponse::Nested(
        facts
            .symbols
            .iter()
            .map(|n| conv(n, &doc.text, &doc.lines, enc))
            .collect(),
    ))
}

fn inlay_hints(s: &mut Server, p: lt::InlayHintParams) -> Option<Vec<lt::InlayHint>> {
    if !s.settings.inlay_hints {
        return Some(Vec::new());
    }
    let enc = s.encoding;
    let doc = s.docs.get_mut(&p.text_document.uri)?;
    let want = doc.lines.span(&doc.text, p.range, enc);
    doc.facts();
    let facts = doc.facts.as_ref()?;
    let mut hints = Vec::new();
    let mut last_line = None;
    for &(span, k, a) in &facts.accesses {
        if span.end < want.start || span.start > want.end {
            continue;
        }
        let Some(k) = facts.kernels.get(k as usize) else {
            continue;
        };
        let Some(acc) = k.accesses.get(a as usize) else {
            continue;
        };
        if acc.space != Space::Global {
            continue;
        }
        let line = doc.lines.line_of(span.start);
        // One hint per line (two accesses on one line: the first).
        if last_line == Some(line) {
            continue;
        }
        last_line = Some(line);
        let (_, end) = doc.lines.line_range(&doc.text, line);
        let pr = &acc.per_request;
        let label = format!(
            "{} sectors/req (ideal {})",
            fmt_num(pr.sectors),
            fmt_num(pr.ideal_sectors)
        );
        hints.push(lt::InlayHint {
            position: doc.lines.position(&doc.text, end, enc),
            label: lt::InlayHintLabel::String(label),
            kind: None,
            text_edits: None,
            tooltip: Some(lt::InlayHintTooltip::MarkupContent(lt::MarkupContent {
                kind: lt::MarkupKind::Markdown,
                value: access_hover(k, acc),
            })),
            padding_left: Some(true),
            padding_right: None,
            data: None,
        });
    }
    Some(hints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope::analysis::{AccessOp, Pattern, PerRequest, SourceLocation};
    use warpscope::source::LineCol;

    /// A strided store as the analysis would describe it: 32 lanes, 4 bytes
    /// each, 128 bytes apart — one 32-byte sector and one 128-byte line per
    /// lane (32 of each), where 128 contiguous bytes would touch 4 sectors
    /// in 1 line. (Derived from the sector model, not measured: this test is
    /// about the rendering.)
    fn strided_store() -> (KernelAnalysis, Access) {
        let a = Access {
            span: Span::new(10, 40),
            ptx: LineCol {
                line: 42,
                column: 2,
            },
            source: Some(SourceLocation {
                file: "kernels.cu".into(),
                line: 6,
                column: 5,
                inlined_at: None,
            }),
            instruction: "st.global.f32".into(),
            op: AccessOp::Store,
            space: Space::Global,
            bits: 32,
            pattern: Pattern::Strided,
            stride_bytes: Some(128),
            lane_pattern: "base + 128*i".into(),
            per_request: PerRequest {
                l1_lines: 32.0,
                sectors: 32.0,
                ideal_sectors: 4.0,
                sectors_min: 32.0,
                sectors_max: 32.0,
                l1_lines_min: 32.0,
                l1_lines_max: 32.0,
                active_lanes: Some(32.0),
            },
            ..Default::default()
        };
        let k = KernelAnalysis {
            name: "_Z6stridePfS_i".into(),
            demangled: "stride(float*, float*, int)".into(),
            block: [256, 1, 1],
            block_assumed: true,
            grid: None,
            accesses: vec![a.clone()],
            totals: None,
            totals_unavailable: None,
            caveats: vec![warpscope::analysis::Caveat::BlockAssumed1D],
            expect_tx: Vec::new(),
            span: Span::default(),
        };
        (k, a)
    }

    #[test]
    fn access_hover_shows_every_figure() {
        let (k, a) = strided_store();
        insta::assert_snapshot!(access_hover(&k, &a), @r"
        **`st.global.f32`** — global store, 32 bits per lane (kernel `stride(float*, float*, int)`)

        | | |
        |---|---|
        | pattern | **strided** (stride 128 B) |
        | lane address | `base + 128*i` |
        | L1 lines / request | 32 (ideal 1) |
        | sectors / request | 32 (ideal 4) |
        | active lanes | 32 of 32 |
        | CUDA source | `kernels.cu:6:5` |

        - no block shape known: assumed a 1-D block whose size is a multiple of 32
        ");
    }

    #[test]
    fn bounds_and_fractions_are_shown() {
        let (k, mut a) = strided_store();
        a.per_request.sectors = 6.5;
        a.per_request.sectors_min = 4.0;
        a.per_request.sectors_max = 8.0;
        a.per_request.active_lanes = None;
        a.per_request.l1_lines_min = 2.0;
        a.per_request.l1_lines_max = 3.0;
        a.source = Some(SourceLocation {
            file: "atomic.h".into(),
            line: 10,
            column: 0,
            inlined_at: Some(Box::new(SourceLocation {
                file: "k.cu".into(),
                line: 3,
                column: 7,
                inlined_at: None,
            })),
        });
        let h = access_hover(&k, &a);
        assert!(
            h.contains("| L1 lines / request | 32 (ideal 1), between 2 and 3 |"),
            "{h}"
        );
        assert!(
            h.contains("| CUDA source | `atomic.h:10`, inlined at `k.cu:3:7` |"),
            "{h}"
        );
        assert!(
            h.contains("| sectors / request | 6.5 (ideal 4), between 4 and 8 |"),
            "{h}"
        );
        assert!(h.contains("| active lanes | unknown |"), "{h}");
    }

    #[test]
    fn diagnostics_keep_code_level_notes_and_secondary_labels() {
        use warpscope::diagnostic::FrontEndCode;
        let text = "ab\ncd é\nef";
        let lines = LineIndex::new(text);
        let d = Diagnostic::error(
            FrontEndCode::DuplicateLabel,
            Span::new(3, 5),
            "label `cd` is defined twice",
        )
        .with_label("second definition")
        .with_secondary(Span::new(0, 2), "first definition")
        .with_note("ptxas rejects this")
        .with_help("rename one");
        let uri: lt::Uri = "file:///x.ptx".parse().unwrap();
        let l = to_lsp_diagnostic(
            &d,
            &uri,
            text,
            &lines,
            Encoding::Utf16,
            Some("https://example.org/rules/{code}-{name}"),
        );
        assert_eq!(l.code, Some(lt::NumberOrString::String("E0102".into())));
        assert_eq!(l.severity, Some(lt::DiagnosticSeverity::ERROR));
        assert_eq!(
            l.range.start,
            lt::Position {
                line: 1,
                character: 0
            }
        );
        assert_eq!(l.message, "label `cd` is defined twice: second definition\nnote: ptxas rejects this\nhelp: rename one");
        let rel = l.related_information.unwrap();
        assert_eq!(rel[0].message, "first definition");
        assert_eq!(
            rel[0].location.range.end,
            lt::Position {
                line: 0,
                character: 2
            }
        );
        assert_eq!(
            l.code_description.unwrap().href.as_str(),
            "https://example.org/rules/E0102-duplicate-label"
        );
        assert_eq!(l.data.unwrap()["name"], "duplicate-label");
    }
}

//! Semantic checks on real PTX: the valid corpus and the example kernels
//! resolve without a single diagnostic; the fixtures and the invalid corpus
//! produce the diagnostics in their snapshots (rendered as the CLI renders them).

use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
use std::path::{Path, PathBuf};
use warpscope::diagnostic::Diagnostic;
use warpscope::sema::ModuleSymbols;
use warpscope::source::SourceFile;
use warpscope::source::Span;
use warpscope::syntax::ast::{Module, Operand, OperandKind, StmtKind};

mod common;

fn render(file: &SourceFile, diags: &[Diagnostic]) -> String {
    let files = SimpleFile::new(file.name(), file.text());
    let mut buf = NoColor::new(Vec::new());
    let config = term::Config::default();
    for d in diags {
        term::emit(&mut buf, &config, &files, &d.to_codespan(())).unwrap();
    }
    String::from_utf8(buf.into_inner()).unwrap()
}

/// Names used by instructions (registers, symbols, guards) that have no
/// entry in the resolution side table; `.calltargets` names excepted (the
/// parser drops them, see `Scopes`).
fn unresolved(module: &Module<'_>, syms: &ModuleSymbols<'_>) -> Vec<Span> {
    fn walk(op: &Operand<'_>, out: &mut Vec<Span>) {
        match &op.kind {
            OperandKind::Reg { name, .. } | OperandKind::Symbol(name) if *name != "_" => {
                out.extend(op.name().map(|n| n.span))
            }
            OperandKind::Address { base: Some(b), .. } => walk(b, out),
            OperandKind::AddressList(v) | OperandKind::Vector(v) | OperandKind::List(v) => {
                v.iter().for_each(|o| walk(o, out))
            }
            OperandKind::Not(o) | OperandKind::Offset { base: o, .. } => walk(o, out),
            OperandKind::PredPair(p) => p.iter().for_each(|o| walk(o, out)),
            _ => {}
        }
    }
    let mut missing = Vec::new();
    for id in module.function_ids() {
        let f = module.function(id);
        let Some(body) = &f.body else { continue };
        let fs = syms.function(id);
        for (_, stmt) in body.iter() {
            let StmtKind::Instruction(i) = &stmt.kind else {
                continue;
            };
            let mut names = Vec::new();
            if let Some(g) = &i.guard {
                names.push(g.pred_ident().span);
            }
            let ops = &i.operands[..];
            ops.iter().for_each(|o| walk(o, &mut names));
            missing.extend(names.into_iter().filter(|s| fs.resolve(*s).is_none()));
        }
    }
    missing
}

fn sema(file: &SourceFile) -> Vec<Diagnostic> {
    let (module, _) = warpscope::syntax::parse(file.text());
    warpscope::sema::check_module(&module).1
}

#[test]
fn valid_corpus_resolves_without_diagnostics() {
    let mut files: Vec<PathBuf> = common::ptx_files("tests/corpus")
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "invalid"))
        .collect();
    files.extend(common::ptx_files("examples"));
    files.extend(
        common::ptx_files("tests/fixtures/sema")
            .into_iter()
            .filter(|p| {
                p.file_name().is_some_and(|n| {
                    n.to_string_lossy().starts_with("cfg_")
                        || n.to_string_lossy().starts_with("ok_")
                })
            }),
    );
    assert!(files.len() > 50, "corpus not found");
    let mut report = String::new();
    for path in &files {
        let file = common::load(path);
        let diags = sema(&file);
        if !diags.is_empty() {
            report.push_str(&render(&file, &diags));
        }
        let (module, _) = warpscope::syntax::parse(file.text());
        let (syms, _) = warpscope::sema::check_module(&module);
        for span in unresolved(&module, &syms) {
            let lc = file.line_col(span.start);
            report.push_str(&format!(
                "{}:{}:{}: `{}` has no resolution\n",
                file.name(),
                lc.line,
                lc.column,
                file.slice(span)
            ));
        }
    }
    assert!(report.is_empty(), "false positives on valid PTX:\n{report}");
}

/// The library corpus (cuBLAS, cuDNN, … PTX extracted by
/// `scripts/build-corpus.sh` into `.corpus/`, not committed): run with
/// `WARPSCOPE_BIG_CORPUS=.corpus cargo test --release --test sema -- --ignored`
/// (`WARPSCOPE_SAMPLE=N` checks every Nth file only).
#[test]
#[ignore = "needs the local library corpus (scripts/build-corpus.sh)"]
fn library_corpus_resolves_without_diagnostics() {
    let Ok(root) = std::env::var("WARPSCOPE_BIG_CORPUS") else {
        panic!("set WARPSCOPE_BIG_CORPUS to the corpus directory");
    };
    let step: usize = std::env::var("WARPSCOPE_SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    let files = common::ptx_files(&root);
    let (mut checked, mut functions, mut blocks, mut failures, mut parse_failures) =
        (0, 0, 0, 0, 0);
    let mut report = String::new();
    for path in files.iter().step_by(step) {
        let file =
            SourceFile::new(path.display().to_string(), std::fs::read(path).unwrap()).unwrap();
        let (module, parse_diags) = warpscope::syntax::parse(file.text());
        let (syms, diags) = warpscope::sema::check_module(&module);
        checked += 1;
        parse_failures += usize::from(!parse_diags.is_empty());
        let missing = unresolved(&module, &syms);
        if !missing.is_empty() {
            failures += 1;
            let lc = file.line_col(missing[0].start);
            report.push_str(&format!(
                "{}:{}: `{}` has no resolution ({} in all)\n",
                file.name(),
                lc.line,
                file.slice(missing[0]),
                missing.len()
            ));
        }
        for f in module.functions.iter().filter(|f| f.body.is_some()) {
            functions += 1;
            blocks += warpscope::cfg::Cfg::build(&warpscope::lower::ptx::lower_standalone(f))
                .blocks()
                .len();
        }
        if !diags.is_empty() {
            failures += 1;
            if report.len() < 20_000 {
                report.push_str(&render(&file, &diags[..diags.len().min(5)]));
            }
        }
    }
    eprintln!("{checked} files ({parse_failures} with parse diagnostics), {functions} functions, {blocks} blocks, {failures} files with sema diagnostics or unresolved names");
    assert!(failures == 0, "false positives on library PTX:\n{report}");
}

/// Each `eNNNN_*.ptx` fixture yields diagnostics of its code (and only
/// front-end codes); the rendered diagnostics are snapshotted.
#[test]
fn error_fixtures_render() {
    let files: Vec<PathBuf> = common::ptx_files("tests/fixtures/sema")
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('e'))
        })
        .collect();
    assert!(files.len() >= 5);
    for path in files {
        let file = common::load(&path);
        let (module, parse_diags) = warpscope::syntax::parse(file.text());
        assert!(parse_diags.is_empty(), "{}: {parse_diags:#?}", file.name());
        let (_, diags) = warpscope::sema::check_module(&module);
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let code = stem[..5].to_ascii_uppercase();
        assert!(
            diags.iter().any(|d| d.code == code),
            "{}: no {code} reported",
            file.name()
        );
        insta::with_settings!({ description => file.name().to_string(), omit_expression => true }, {
            insta::assert_snapshot!(stem, render(&file, &diags));
        });
    }
}

/// The invalid corpus files that are semantic errors.
#[test]
fn invalid_corpus_semantic_errors() {
    for (name, code) in [
        ("undeclared_register", "E0101"),
        ("duplicate_label", "E0102"),
        ("unknown_label", "E0103"),
    ] {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/corpus/invalid/{name}.ptx"));
        let file = common::load(&path);
        let diags = sema(&file);
        assert!(diags.iter().all(|d| d.code == code), "{name}: {diags:#?}");
        insta::with_settings!({ description => file.name().to_string(), omit_expression => true }, {
            insta::assert_snapshot!(format!("invalid__{name}"), render(&file, &diags));
        });
    }
}

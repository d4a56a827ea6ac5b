//! The syntax tree of hand-written edge cases, dumped compactly (one line per
//! item or statement, operands with their kinds and source text) and kept as
//! reviewed snapshots: a change in what the parser builds shows up as a diff.

use std::fmt::Write;
use warpscope::source::SourceFile;
use warpscope::syntax::ast::*;

fn operand(src: &str, op: &Operand<'_>) -> String {
    let text = &src[op.span.range()];
    let kind = match &op.kind {
        OperandKind::Reg {
            component: Some(c), ..
        } => format!("reg.{}", c.as_str()),
        OperandKind::Reg { .. } => "reg".into(),
        OperandKind::Symbol(_) => "sym".into(),
        OperandKind::Int(v) => format!("int={v}"),
        OperandKind::Float(v) => format!("float={v}"),
        OperandKind::Sink => "sink".into(),
        OperandKind::Address { base, offset } => {
            format!(
                "addr(base={}, off={offset})",
                base.as_ref().map_or("-".to_string(), |b| operand(src, b))
            )
        }
        OperandKind::AddressList(v) => format!(
            "addrlist[{}]",
            v.iter()
                .map(|o| operand(src, o))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        OperandKind::Vector(v) => format!(
            "vec[{}]",
            v.iter()
                .map(|o| operand(src, o))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        OperandKind::List(v) => format!(
            "list[{}]",
            v.iter()
                .map(|o| operand(src, o))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        OperandKind::Not(o) => format!("not({})", operand(src, o)),
        OperandKind::PredPair(p) => {
            format!("pair({}, {})", operand(src, &p[0]), operand(src, &p[1]))
        }
        OperandKind::Offset { base, offset } => format!("offset({}, {offset})", operand(src, base)),
    };
    format!("{kind} `{text}`")
}

fn var(v: &VarDecl<'_>) -> String {
    let names: Vec<String> = v
        .declarators
        .iter()
        .map(|d| {
            let mut s = d.name.text.to_string();
            if let Some(n) = d.range {
                s += &format!("<{n}>");
            }
            for dim in &d.dims {
                s += &dim.map_or("[]".to_string(), |n| format!("[{n}]"));
            }
            if d.init.is_some() {
                s += " = …";
            }
            s
        })
        .collect();
    format!(
        "{:?} linkage={:?} align={:?} v{} ty={} ptr={:?} {}",
        v.space,
        v.linkage,
        v.align,
        v.vector,
        v.ty.map_or("-", |t| t.text),
        v.ptr,
        names.join(", ")
    )
}

fn dump(path: &str) -> String {
    let bytes = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let file = SourceFile::new(path, bytes).unwrap();
    let src = file.text();
    let (m, diags) = warpscope::syntax::parse_file(&file);
    assert!(
        diags.is_empty(),
        "{}",
        warpscope::diagnostic::render_plain(path, src, &diags)
    );
    let at = |s: warpscope::source::Span| {
        let lc = file.line_col(s.start);
        format!("{:>3}:{:<3}", lc.line, lc.column)
    };
    let mut out = String::new();
    for item in &m.items {
        match &item.kind {
            ItemKind::Function(id) => {
                let f = m.function(*id);
                writeln!(
                    out,
                    "{} {:?} {:?} {} returns={} params={} directives=[{}] body={}",
                    at(item.span),
                    f.linkage,
                    f.kind,
                    f.name.text,
                    f.returns.len(),
                    f.params.len(),
                    f.directives
                        .iter()
                        .map(|d| format!("{}{:?}", d.name.text, d.values))
                        .collect::<Vec<_>>()
                        .join(" "),
                    f.body.as_ref().map_or("none".to_string(), |b| format!(
                        "{} statements",
                        b.statements.len()
                    ))
                )
                .unwrap();
                for p in f.returns.iter().chain(&f.params) {
                    writeln!(out, "{}   param {}", at(p.span), var(p)).unwrap();
                }
                for st in f.body.iter().flat_map(|b| &b.statements) {
                    let line = match &st.kind {
                        StmtKind::Label(l) => format!("label {}", l.text),
                        StmtKind::Instruction(ins) => {
                            let guard = ins.guard.as_ref().map_or(String::new(), |g| {
                                format!("@{}{} ", if g.negated { "!" } else { "" }, g.pred)
                            });
                            let ops: Vec<String> =
                                ins.operands.iter().map(|o| operand(src, o)).collect();
                            format!("{guard}{} | {}", ins.mnemonic, ops.join(" | "))
                        }
                        StmtKind::Var(v) => format!("var {}", var(v)),
                        StmtKind::Loc(l) => format!(
                            "loc {} {} {} fn={:?} inlined_at={:?}",
                            l.file,
                            l.line,
                            l.column,
                            l.function_name.as_ref().map(|f| f.text),
                            l.inlined_at
                        ),
                        StmtKind::Pragma(p) => format!("pragma {:?}", p.text),
                        StmtKind::BranchTargets { name, targets } => format!(
                            "branchtargets {} = {:?}",
                            name.text,
                            targets.iter().map(|t| t.text).collect::<Vec<_>>()
                        ),
                        StmtKind::CallTargets { name, targets } => format!(
                            "calltargets {} = {:?}",
                            name.text,
                            targets.iter().map(|t| t.text).collect::<Vec<_>>()
                        ),
                        StmtKind::CallPrototype(p) => format!(
                            "callprototype {} returns={} params={}",
                            p.name.text,
                            p.returns.len(),
                            p.params.len()
                        ),
                        StmtKind::Directive { name } => format!("directive {}", name.text),
                        StmtKind::ScopeOpen => "{".into(),
                        StmtKind::ScopeClose => "}".into(),
                        StmtKind::Error => "ERROR".into(),
                    };
                    writeln!(out, "{}   {line}", at(st.span)).unwrap();
                }
            }
            ItemKind::Var(v) => writeln!(out, "{} var {}", at(item.span), var(v)).unwrap(),
            ItemKind::Section(s) => writeln!(
                out,
                "{} section {} ({} entries)",
                at(item.span),
                s.name.text,
                s.entries.len()
            )
            .unwrap(),
            ItemKind::File(f) => writeln!(
                out,
                "{} file {} {:?} ts={:?} size={:?}",
                at(item.span),
                f.index,
                f.name.text,
                f.timestamp,
                f.size
            )
            .unwrap(),
            other => writeln!(out, "{} {:?}", at(item.span), other).unwrap(),
        }
    }
    out
}

macro_rules! tree_snapshot {
    ($name:ident, $path:literal) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), dump($path));
        }
    };
}

tree_snapshot!(
    address_operands,
    "tests/corpus/handwritten/address_operands.ptx"
);
tree_snapshot!(calls, "tests/corpus/handwritten/calls.ptx");
tree_snapshot!(
    functions_params,
    "tests/corpus/handwritten/functions_params.ptx"
);
tree_snapshot!(immediates, "tests/corpus/handwritten/immediates.ptx");
tree_snapshot!(initializers, "tests/corpus/handwritten/initializers.ptx");
tree_snapshot!(loc_inlined, "tests/corpus/handwritten/loc_inlined.ptx");
tree_snapshot!(
    module_directives,
    "tests/corpus/handwritten/module_directives.ptx"
);
tree_snapshot!(
    library_idioms,
    "tests/corpus/handwritten/library_idioms.ptx"
);

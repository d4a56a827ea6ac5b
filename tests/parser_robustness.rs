//! No input makes the parser panic, loop or blow up memory: every prefix of
//! several real PTX files, thousands of random mutations, non-UTF-8 bytes,
//! empty input and pathological nesting all give a module plus diagnostics
//! whose spans lie inside the input.

use warpscope::source::SourceFile;
use warpscope::syntax::ast::{Module, StmtKind};
use warpscope::syntax::parse_file;

/// Real PTX from the committed corpus: Triton output, hand-written edge cases.
const FILES: &[&str] = &[
    "tests/corpus/triton/triton_vector_add_sm90.ptx",
    "tests/corpus/handwritten/calls.ptx",
    "tests/corpus/handwritten/debug_sections.ptx",
    "tests/corpus/handwritten/initializers.ptx",
];

fn read(path: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Parses `bytes` and checks that every span of the result lies in the text.
fn parse_clean(bytes: &[u8]) -> usize {
    let file = SourceFile::new("fuzz.ptx", bytes.to_vec()).expect("small input");
    let len = file.text().len() as u32;
    let (module, diags) = parse_file(&file);
    for d in &diags {
        for l in &d.labels {
            assert!(
                l.span.start <= l.span.end && l.span.end <= len,
                "diagnostic span {:?} outside 0..{len}",
                l.span
            );
        }
        assert!(!d.message.is_empty());
    }
    check_spans(&module, len);
    diags.len()
}

fn check_spans(m: &Module<'_>, len: u32) {
    for item in &m.items {
        assert!(item.span.end <= len && item.span.start <= item.span.end);
    }
    for f in &m.functions {
        assert!(f.span.end <= len && f.name.span.end <= len);
        if let Some(b) = &f.body {
            let mut prev = 0;
            for st in &b.statements {
                assert!(st.span.start <= st.span.end && st.span.end <= len);
                assert!(st.span.start >= prev, "statements out of order");
                prev = st.span.start;
                if let StmtKind::Instruction(ins) = &st.kind {
                    for op in &ins.operands {
                        assert!(op.span.end <= len && op.span.start >= st.span.start);
                    }
                }
            }
        }
    }
}

/// SplitMix64: a fixed-seed generator, so every run tests the same inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn every_prefix_truncation_parses_cleanly() {
    for path in FILES {
        let bytes = read(path);
        assert_eq!(
            parse_clean(&bytes),
            0,
            "{path} should parse without diagnostics"
        );
        for n in 0..bytes.len() {
            parse_clean(&bytes[..n]);
        }
    }
}

#[test]
fn random_mutations_parse_cleanly() {
    const INTERESTING: &[u8] = b"{}[]();,.%@!-+|<>=_:\"/*\\\n\t 0123456789xfdU$";
    let mut rng = Rng(0x5EED);
    let mut with_diagnostics = 0;
    let mut total = 0;
    for path in FILES {
        let original = read(path);
        for _ in 0..1500 {
            let mut b = original.clone();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(b.len());
                let byte = if rng.below(3) == 0 {
                    rng.next() as u8
                } else {
                    INTERESTING[rng.below(INTERESTING.len())]
                };
                match rng.below(3) {
                    0 if !b.is_empty() => b[at] = byte,
                    1 => b.insert(at, byte),
                    _ if !b.is_empty() => {
                        b.remove(at);
                    }
                    _ => {}
                }
            }
            total += 1;
            if parse_clean(&b) > 0 {
                with_diagnostics += 1;
            }
        }
    }
    // The mutations must actually break things, or this test tests nothing.
    assert!(
        with_diagnostics * 2 > total,
        "only {with_diagnostics} of {total} mutants were diagnosed"
    );
}

#[test]
fn empty_and_non_utf8_inputs() {
    assert_eq!(parse_clean(b""), 0);
    assert_eq!(parse_clean(b"   \n\t// only a comment\n"), 0);
    assert!(parse_clean(b"\xff\xfe\x00\x01") > 0);
    assert!(
        parse_clean(
            b".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k() { \xc3\x28 ret; }"
        ) > 0
    );
    let mut rng = Rng(42);
    for _ in 0..200 {
        let n = rng.below(300);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        parse_clean(&bytes);
    }
}

#[test]
fn pathological_nesting_and_lengths() {
    let header = ".version 8.5\n.target sm_90\n.address_size 64\n";
    let deep_init = format!("{header}.global .u32 x[1] = {};", "{".repeat(100_000));
    assert!(parse_clean(deep_init.as_bytes()) > 0);
    let deep_operand = format!(
        "{header}.visible .entry k() {{ mov.u32 %r1, {}1; }}",
        "(".repeat(100_000)
    );
    assert!(parse_clean(deep_operand.as_bytes()) > 0);
    let deep_vector = format!(
        "{header}.visible .entry k() {{ mov.u32 %r1, {}; }}",
        "{".repeat(100_000)
    );
    assert!(parse_clean(deep_vector.as_bytes()) > 0);
    let deep_scopes = format!("{header}.visible .entry k() {{ {} }}", "{".repeat(50_000));
    assert!(parse_clean(deep_scopes.as_bytes()) > 0);
    let long_line = format!(
        "{header}.visible .entry k() {{ {} }}",
        "add.s32 %r1, %r1, 1; ".repeat(20_000)
    );
    assert_eq!(parse_clean(long_line.as_bytes()), 0);
    let unterminated_comment = format!("{header}/* never closed");
    assert!(parse_clean(unterminated_comment.as_bytes()) > 0);
    let huge_number = format!("{header}.global .u64 x = 123456789012345678901234567890;");
    assert!(parse_clean(huge_number.as_bytes()) > 0);
}

//! The opcodes of the PTX ISA 9.x instruction set (PTX ISA §9.7). An
//! instruction whose opcode is not listed here still parses; `parse --stats`
//! counts it as unknown.

/// Every PTX opcode (the mnemonic before its first `.`), sorted.
pub const OPCODES: &[&str] = &[
    "abs",
    "activemask",
    "add",
    "addc",
    "alloca",
    "and",
    "applypriority",
    "atom",
    "bar",
    "barrier",
    "bfe",
    "bfi",
    "bfind",
    "bmsk",
    "bra",
    "brev",
    "brkpt",
    "brx",
    "call",
    "clusterlaunchcontrol",
    "clz",
    "cnot",
    "copysign",
    "cos",
    "cp",
    "createpolicy",
    "cvt",
    "cvta",
    "discard",
    "div",
    "dp2a",
    "dp4a",
    "elect",
    "ex2",
    "exit",
    "fence",
    "fma",
    "fns",
    "getctarank",
    "griddepcontrol",
    "isspacep",
    "istypep",
    "ld",
    "ldmatrix",
    "ldu",
    "lg2",
    "lop3",
    "mad",
    "mad24",
    "madc",
    "mapa",
    "match",
    "max",
    "mbarrier",
    "membar",
    "min",
    "mma",
    "mov",
    "movmatrix",
    "mul",
    "mul24",
    "multimem",
    "nanosleep",
    "neg",
    "not",
    "or",
    "pmevent",
    "popc",
    "prefetch",
    "prefetchu",
    "prmt",
    "rcp",
    "red",
    "redux",
    "rem",
    "ret",
    "rsqrt",
    "sad",
    "selp",
    "set",
    "setmaxnreg",
    "setp",
    "shf",
    "shfl",
    "shl",
    "shr",
    "sin",
    "slct",
    "sqrt",
    "st",
    "stackrestore",
    "stacksave",
    "stmatrix",
    "sub",
    "subc",
    "suld",
    "suq",
    "sured",
    "sust",
    "szext",
    "tanh",
    "tcgen05",
    "tensormap",
    "testp",
    "tex",
    "tld4",
    "trap",
    "txq",
    "vabsdiff",
    "vabsdiff2",
    "vabsdiff4",
    "vadd",
    "vadd2",
    "vadd4",
    "vavrg2",
    "vavrg4",
    "vmad",
    "vmax",
    "vmax2",
    "vmax4",
    "vmin",
    "vmin2",
    "vmin4",
    "vote",
    "vset",
    "vset2",
    "vset4",
    "vshl",
    "vshr",
    "vsub",
    "vsub2",
    "vsub4",
    "wgmma",
    "wmma",
    "xor",
];

/// Open-addressing hash table over [`OPCODES`], built once: a lookup is one
/// short hash and usually one comparison (a binary search with `memcmp` was
/// a fifth of the parser's time).
struct Table {
    slots: [u16; TABLE_SIZE],
}

const TABLE_SIZE: usize = 1024;
const EMPTY: u16 = u16::MAX;

fn hash(op: &[u8]) -> usize {
    let mut h: u32 = 0x811C_9DC5;
    for &b in op {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    h as usize & (TABLE_SIZE - 1)
}

fn table() -> &'static Table {
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut slots = [EMPTY; TABLE_SIZE];
        for (i, op) in OPCODES.iter().enumerate() {
            let mut k = hash(op.as_bytes());
            while slots[k] != EMPTY {
                k = (k + 1) & (TABLE_SIZE - 1);
            }
            slots[k] = i as u16;
        }
        Table { slots }
    })
}

/// True when `op` is a PTX opcode.
pub fn is_known(op: &str) -> bool {
    let t = table();
    let mut k = hash(op.as_bytes());
    loop {
        match t.slots[k] {
            EMPTY => return false,
            i if OPCODES[i as usize] == op => return true,
            _ => k = (k + 1) & (TABLE_SIZE - 1),
        }
    }
}

/// The known opcode closest to `op` (edit distance at most 2), for a `help:`.
pub fn suggest(op: &str) -> Option<&'static str> {
    OPCODES
        .iter()
        .map(|k| (distance(op, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn sorted_and_unique() {
        assert!(super::OPCODES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn lookup_finds_exactly_the_table() {
        for op in super::OPCODES {
            assert!(super::is_known(op), "{op}");
        }
        for op in [
            "",
            "fmac",
            "ld.global",
            "LD",
            "addx",
            "clusterlaunchcontrolx",
        ] {
            assert!(!super::is_known(op), "{op}");
        }
        assert_eq!(super::suggest("fmac"), Some("fma"));
    }
}

//! The opcodes of the PTX ISA 9.x instruction set (PTX ISA §9.7). An
//! instruction whose opcode is not listed here still parses; `parse --stats`
//! counts it as unknown.

/// Every PTX opcode (the mnemonic before its first `.`), sorted.
pub const OPCODES: &[&str] = &[
    "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar", "barrier", "bfe", "bfi",
    "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call", "clusterlaunchcontrol", "clz", "cnot", "copysign", "cos",
    "cp", "createpolicy", "cvt", "cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence", "fma",
    "fns", "getctarank", "griddepcontrol", "isspacep", "istypep", "ld", "ldmatrix", "ldu", "lg2", "lop3", "mad",
    "mad24", "madc", "mapa", "match", "max", "mbarrier", "membar", "min", "mma", "mov", "movmatrix", "mul", "mul24",
    "multimem", "nanosleep", "neg", "not", "or", "pmevent", "popc", "prefetch", "prefetchu", "prmt", "rcp", "red",
    "redux", "rem", "ret", "rsqrt", "sad", "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin",
    "slct", "sqrt", "st", "stackrestore", "stacksave", "stmatrix", "sub", "subc", "suld", "suq", "sured", "sust",
    "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4", "trap", "txq", "vabsdiff", "vabsdiff2",
    "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax", "vmax2", "vmax4", "vmin", "vmin2",
    "vmin4", "vote", "vset", "vset2", "vset4", "vshl", "vshr", "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor",
];

/// True when `op` is a PTX opcode.
pub fn is_known(op: &str) -> bool {
    OPCODES.binary_search(&op).is_ok()
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
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
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
}

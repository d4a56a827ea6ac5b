//! ADAPTER, to be removed when the address analysis lands on this branch.
//!
//! `check_file` must call `warpscope::analysis::analyze(file, opts)`. Until
//! that function exists, this adapter runs only the front end (the parser)
//! and returns its diagnostics with **no kernels and no accesses**: lints see
//! nothing, so `check` reports syntax errors only. It fabricates no analysis
//! result.

use crate::analysis::model::{Analysis, Options};
use crate::source::SourceFile;

/// Front end only: parse diagnostics, no kernels (see the module doc).
pub fn analyze(file: &SourceFile, _opts: &Options) -> Analysis {
    let (_module, diagnostics) = crate::syntax::parse(file.text());
    Analysis {
        kernels: Vec::new(),
        diagnostics,
    }
}

//! Warp address analysis (see the submodules' essays).

pub mod model;
pub use model::*;

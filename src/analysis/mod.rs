//! Warp address analysis (see the submodules' essays).

pub mod model;
pub use model::*;
pub mod cost;
pub mod domain;
pub mod transfer;

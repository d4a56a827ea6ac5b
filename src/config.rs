//! Configuration (`warpscope.toml`).

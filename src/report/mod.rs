//! Report rendering.

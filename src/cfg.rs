//! Control-flow graphs.

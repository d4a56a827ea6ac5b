//! Symbol tables and name resolution.

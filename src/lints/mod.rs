//! The lint catalogue.

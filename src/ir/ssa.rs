//! SSA form (being written).

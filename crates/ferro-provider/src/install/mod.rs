//! Provider installation (placeholder while writing).

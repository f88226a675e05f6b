//! ferro-hir

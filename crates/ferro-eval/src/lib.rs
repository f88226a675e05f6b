//! ferro-eval

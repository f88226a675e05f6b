//! ferro-exec

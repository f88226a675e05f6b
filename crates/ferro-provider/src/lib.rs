//! ferro-provider

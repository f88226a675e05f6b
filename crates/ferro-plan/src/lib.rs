//! ferro-plan

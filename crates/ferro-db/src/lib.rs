//! ferro-db

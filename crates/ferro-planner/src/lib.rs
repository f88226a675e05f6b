//! ferro-planner

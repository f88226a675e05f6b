//! The interpreter: executes a plan's graph in dependency order, independent steps concurrently
//! (`-parallelism`), and records every completed change in state as it happens.
//!
//! **Architecture invariant:** it never chooses an action. For each step it re-evaluates the
//! instance's configuration (now known), asks the provider for the final plan, checks it against
//! the initial plan, applies, checks the result and stores it.

mod ephemeral;
mod interrupt;
mod priors;
mod provision;
mod run;
mod settle;
mod step;

pub use ferro_runtime::ephemeral::{EphemeralEvent, EphemeralOp, EphemeralPhase};
pub use interrupt::Interrupt;
pub use run::{apply, ApplyInput, Event, ProvisionPhase};

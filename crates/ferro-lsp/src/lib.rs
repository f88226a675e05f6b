//! The language server (`ferro lsp`): LSP 3.17 over stdio on ferro-db, the analysis database
//! every front end shares. One long-lived database is updated per edit (salsa inputs set);
//! diagnostics have `ferro validate`'s texts; navigation uses ferro-db's `file_sites`,
//! `resolve` and `references_index`; formatting is ferro-syntax's formatter (`ferro fmt`).
//!
//! **Architecture invariant:** the server never starts a provider: schemas come from the
//! built-in providers in process and from the cache `ferro init` writes
//! (`.terraform/ferro-schemas.json`).

mod features;
mod functions;
pub mod lines;
pub mod rpc;
pub use ferro_workspace::schemas;
pub mod server;
mod validate;
pub mod world;

pub use ferro_db::NEWEST_LANGUAGE_VERSION;
pub use server::serve;
pub use world::World;

/// Serve on the process's standard input and output; returns the exit code.
pub fn run_stdio() -> i32 {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    serve(stdin, &mut out)
}

//! `ferro get [-update]`: install the modules the configuration calls, as `init` does, without
//! the rest of `init` (Terraform's `get`). Calls installed before are kept unless `-update`.

use crate::args;
use crate::commands::plain_error;
use crate::{Global, Io};

pub fn get(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match args::parse(a, &["update"], &[]) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    if !p.positional.is_empty() {
        return plain_error(
            io,
            "Invalid arguments",
            "The get command takes no positional arguments; use the global -chdir option to work in another directory.",
        );
    }
    let mut lines = Vec::new();
    let installed = crate::init_modules::install_modules(
        &g.dir,
        p.flag("update"),
        &crate::init_modules::Unreachable,
        &mut |l| lines.push(l),
    );
    for l in &lines {
        let _ = writeln!(io.stdout, "{l}");
    }
    match installed {
        Ok(modules) => {
            if modules.len() > 1 {
                if let Err(e) = crate::init_modules::write_manifest(&g.dir, &modules) {
                    return plain_error(io, "Failed to write the module manifest", &e);
                }
            }
            0
        }
        Err(diags) => {
            let text =
                ferro_diag::render(&diags, &ferro_db::Sources::from_files(Vec::new()), g.color);
            let _ = io.stderr.write_all(text.as_bytes());
            1
        }
    }
}

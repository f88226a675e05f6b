//! `ferro get [-update]`: install the modules the configuration calls, as `init` does, without
//! the rest of `init` (Terraform's `get`). Calls installed before are kept unless `-update`.

use crate::ui::plain_error;
use crate::{Global, Io};

pub fn get(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::other::GET.parse(a) {
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
    match crate::init_modules::install_step(
        g,
        io,
        p.flag("update"),
        p.value("test-directory").unwrap_or("tests"),
        None,
    ) {
        Ok(()) => 0,
        Err(code) => code,
    }
}

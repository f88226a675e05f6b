//! `ferro output` and the outputs printed after apply and refresh (values as Terraform's console
//! prints them: quoted keys, `tomap(...)`, `tolist(...)`, heredocs for multi-line strings).

use crate::ui::{plain_error, print_diags};
use crate::{Global, Io};
use ferro_diag::Diagnostic;
use ferro_render::values::format_value;
use ferro_state::State;
use ferro_value::json;

pub fn output(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::other::OUTPUT.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    if p.flag("raw") && p.positional.is_empty() && !p.flag("json") {
        return plain_error(
            io,
            "Output name required",
            "You must give the name of a single output value when using the -raw option.",
        );
    }
    let state = match crate::backend::read(g, &p, io) {
        Ok(s) => s.unwrap_or_else(|| State::new(String::new())),
        Err(code) => return code,
    };
    let outs = decoded_outputs(&state);
    // As Terraform's human and raw views: with no outputs at all, asking for one is the
    // "No outputs found" warning (exit 0); `-json` says the output is not found.
    if outs.is_empty() && !p.flag("json") {
        no_outputs_warning(g, io);
        return 0;
    }
    if let Some(name) = p.positional.first() {
        let Some((_, v, _)) = outs.iter().find(|(n, _, _)| n == name) else {
            return plain_error(
                io,
                &format!("Output {name:?} not found"),
                "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `ferro apply`, since the state won't be updated with new output variables until that command is run.",
            );
        };
        let text = if p.flag("json") {
            // Escaped as Go's encoding/json escapes (`<` as `\u003c`, …), as Terraform prints it.
            ferro_value::json::to_go_json_string(&json::value_to_plain_json(v))
        } else if p.flag("raw") {
            match v.as_str() {
                Some(s) => s.to_string(),
                None => match json::value_to_plain_json(v) {
                    serde_json::Value::Number(n) => n.to_string(),
                    serde_json::Value::Bool(b) => b.to_string(),
                    _ => return plain_error(io, "Unsupported value for raw output", &format!("The -raw option only supports strings, numbers, and boolean values, but output value {name:?} is {}.\n\nUse the -json option for machine-readable representations of output values that have complex types.", v.ty().friendly_name())),
                },
            }
        } else {
            format_value(&v.unmarked(), 0)
        };
        if p.flag("raw") {
            let _ = write!(io.stdout, "{text}");
        } else {
            let _ = writeln!(io.stdout, "{text}");
        }
        return 0;
    }
    if p.flag("json") {
        let mut obj = serde_json::Map::new();
        for (n, o) in &state.outputs {
            obj.insert(
                n.clone(),
                serde_json::json!({"sensitive": o.sensitive, "type": o.ty, "value": o.value}),
            );
        }
        let text = ferro_value::json::go_escape(
            &serde_json::to_string_pretty(&serde_json::Value::Object(obj)).unwrap_or_default(),
        );
        let _ = writeln!(io.stdout, "{text}");
        return 0;
    }
    write_outputs(io, outs);
    0
}

fn no_outputs_warning(g: &Global, io: &mut Io<'_>) {
    let d = Diagnostic::warning("no-outputs", "No outputs found").with_detail(
        "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `ferro refresh` for it to become available. If you are using interpolation, please verify the interpolated value is not empty. You can use the `ferro console` command to assist.",
    );
    print_diags(
        io,
        &[d],
        &ferro_db::Sources::from_files(Vec::new()),
        g.color,
    );
}

fn decoded_outputs(state: &State) -> Vec<(String, ferro_value::Value, bool)> {
    state
        .outputs
        .iter()
        .filter_map(|(n, o)| {
            let ty = json::type_from_json(&o.ty).ok()?;
            let v = json::value_from_json(&o.value, &ty).ok()?;
            Some((n.clone(), v, o.sensitive))
        })
        .collect()
}

pub(crate) fn print_outputs(io: &mut Io<'_>, state: &State) {
    let outs = decoded_outputs(state);
    if outs.is_empty() {
        return;
    }
    let _ = write!(io.stdout, "\nOutputs:\n\n");
    write_outputs(io, outs);
}

/// `name = value` per output, sensitive ones as `<sensitive>`.
fn write_outputs(io: &mut Io<'_>, outs: Vec<(String, ferro_value::Value, bool)>) {
    for (n, v, sensitive) in outs {
        let text = if sensitive {
            "<sensitive>".to_string()
        } else {
            format_value(&v, 0)
        };
        let _ = writeln!(io.stdout, "{n} = {text}");
    }
}

//! `ferro graph`'s flags (read as Go's `flag` package reads Terraform's) and its help.

use crate::args::Spec;

const HELP: &str = "Usage: ferro [global options] graph [options]

  Prints, in the DOT language, the dependency graph of an operation: a
  node for each resource, provider, module call, variable, local value and
  output, with an edge to everything each one needs. Graphviz
  (\"dot -Tsvg\") and many online viewers turn it into a picture.

  Which graph is drawn is chosen with -type. The default is plan, or, with
  -plan, apply, which ferro cannot draw: give -type together with -plan.

Options:

  -draw-cycles     Accepted for compatibility; like Terraform 1.0.3,
                   ferro draws cycles without colour.

  -module-depth=n  Deprecated, and ignored: every module is drawn.

  -plan=tfplan     Draw from the configuration stored in the given plan
                   file rather than the working directory's (with
                   -type=plan or -type=validate).

  -type=plan       The graph to draw: plan, plan-refresh-only, validate
                   or eval. (Terraform's plan-destroy and apply graphs
                   are not available in ferro.)

  -verbose         Also draw the vertices that close each provider.";

/// graph's flags (Go's flag syntax, read by `parse_flags`) and its help.
pub(crate) const GRAPH: Spec = Spec {
    bools: &["draw-cycles", "verbose"],
    values: &["type", "plan", "module-depth"],
    help: HELP,
};

/// What graph's flags ask for.
pub(crate) struct Flags {
    pub(crate) plan: Option<String>,
    pub(crate) graph_type: Option<String>,
    pub(crate) verbose: bool,
}

/// Parse the flags as Go's `flag` package does for Terraform's graph command: flags stop at the
/// first argument that is not one; errors are worded as Go words them.
pub(crate) fn parse_flags(args: &[String]) -> Result<(Flags, Vec<String>), String> {
    let mut flags = Flags {
        plan: None,
        graph_type: None,
        verbose: false,
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            i += 1;
            break;
        }
        let Some((name, inline)) = crate::args::go_flag(a) else {
            break;
        };
        let inline = inline.map(str::to_string);
        i += 1;
        if !GRAPH.has(name) {
            return Err(format!("flag provided but not defined: -{name}"));
        }
        match name {
            "draw-cycles" | "verbose" => {
                let v = match inline.as_deref() {
                    None => true,
                    Some(v) => crate::args::go_bool(v).ok_or_else(|| {
                        format!("invalid boolean value {v:?} for -{name}: parse error")
                    })?,
                };
                if name == "verbose" {
                    flags.verbose = v;
                }
            }
            "type" | "plan" | "module-depth" => {
                let v = match inline {
                    Some(v) => v,
                    None => {
                        let v = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("flag needs an argument: -{name}"))?;
                        i += 1;
                        v
                    }
                };
                match name {
                    "type" => flags.graph_type = Some(v),
                    "plan" => flags.plan = Some(v),
                    _ => {
                        if parse_go_int(&v).is_none() {
                            return Err(format!(
                                "invalid value {v:?} for flag -module-depth: parse error"
                            ));
                        }
                    }
                }
            }
            _ => return Err(format!("flag provided but not defined: -{name}")),
        }
    }
    Ok((flags, args[i..].to_vec()))
}

/// Go's `strconv.ParseInt(v, 0, 64)` as the flag package reads an int: a sign, then decimal,
/// `0x` hexadecimal, `0o`/leading-zero octal or `0b` binary digits, `_` between digits.
fn parse_go_int(v: &str) -> Option<i64> {
    let digits = v.strip_prefix(['+', '-']).unwrap_or(v);
    let (radix, rest) = if let Some(r) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        (16, r)
    } else if let Some(r) = digits.strip_prefix("0b").or(digits.strip_prefix("0B")) {
        (2, r)
    } else if let Some(r) = digits.strip_prefix("0o").or(digits.strip_prefix("0O")) {
        (8, r)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if rest.is_empty() || rest.starts_with('_') || rest.ends_with('_') || rest.contains("__") {
        return None;
    }
    let n = i64::from_str_radix(&rest.replace('_', ""), radix).ok()?;
    Some(if v.starts_with('-') { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::{parse_flags, parse_go_int};

    #[test]
    fn module_depth_reads_go_integers() {
        assert_eq!(parse_go_int("-1"), Some(-1));
        assert_eq!(parse_go_int("0x10"), Some(16));
        assert_eq!(parse_go_int("010"), Some(8));
        assert_eq!(parse_go_int("1_000"), Some(1000));
        assert_eq!(parse_go_int("x"), None);
        assert_eq!(parse_go_int(""), None);
    }

    #[test]
    fn flags_stop_at_the_first_argument() {
        let args: Vec<String> = ["-type=validate", "dir", "-verbose"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (flags, rest) = parse_flags(&args).unwrap();
        assert_eq!(flags.graph_type.as_deref(), Some("validate"));
        assert!(!flags.verbose);
        assert_eq!(rest, vec!["dir".to_string(), "-verbose".to_string()]);
        let err = parse_flags(&["-type".to_string()]).err().unwrap();
        assert_eq!(err, "flag needs an argument: -type");
    }
}

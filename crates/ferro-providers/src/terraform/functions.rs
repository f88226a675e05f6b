//! The functions of the built-in `terraform` provider (Terraform 1.8):
//! `provider::terraform::encode_tfvars`, `decode_tfvars` and `encode_expr`. Values are written
//! as HCL expressions and laid out by ferro's formatter (what `ferro fmt` writes, as Terraform
//! lays them out with `hclwrite`); `.tfvars` text is read by ferro's parser and its values must
//! be constants.

use ferro_diag::{Diagnostic, FileId, Span};
use ferro_hir::{Expr, Reference};
use ferro_sdk::{FunctionDecl, FunctionError, FunctionParam, SdkProvider};
use ferro_value::hcl_text::{expr_text, valid_identifier};
use ferro_value::{Type, Value, ValueKind};

/// The file name messages about a `decode_tfvars` argument give.
const SOURCE_NAME: &str = "<decode_tfvars argument>";

fn decl(param: FunctionParam, ret: Type, summary: &str, description: &str) -> FunctionDecl {
    FunctionDecl {
        params: vec![param],
        variadic: None,
        return_type: ret,
        summary: summary.to_string(),
        description: description.to_string(),
        description_markdown: false,
        deprecation_message: String::new(),
    }
}

/// Add the three functions to the provider.
pub fn with_functions(p: SdkProvider) -> SdkProvider {
    let mut value = FunctionParam::new("value", Type::Dynamic);
    // Unknown values are seen so that the result is a (not null) unknown string.
    value.allow_unknown = true;
    p.function(
        "encode_tfvars",
        decl(
            value.clone(),
            Type::String,
            "Produce a string representation of an object using the same syntax as for `.tfvars` files",
            "Takes an object value and produces a string containing a description of that object using the syntax of a `.tfvars` file.",
        ),
        |args: &[Value]| encode_tfvars(&args[0]),
    )
    .function(
        "decode_tfvars",
        decl(
            FunctionParam::new("src", Type::String),
            Type::Dynamic,
            "Parse a string containing syntax like that used in a `.tfvars` file",
            "Takes a string containing the content of a `.tfvars` file and returns an object describing the raw variable values it defines.",
        ),
        |args: &[Value]| decode_tfvars(args[0].as_str().unwrap_or_default()),
    )
    .function(
        "encode_expr",
        decl(
            value,
            Type::String,
            "Produce a string representation of an arbitrary value using Terraform expression syntax",
            "Takes any value and produces a string containing Terraform language expression syntax approximating that value.",
        ),
        |args: &[Value]| encode_expr(&args[0]),
    )
}

/// Lay out `name = value` lines as `ferro fmt` does (the text as written when it does not
/// parse, which a value written by `expr_text` always does).
fn laid_out(text: String) -> String {
    ferro_syntax::fmt::format_source(&text).unwrap_or(text)
}

fn encode_expr(v: &Value) -> Result<Value, FunctionError> {
    if !v.is_wholly_known() {
        return Ok(Value::unknown(Type::String));
    }
    let mut text = String::from("v = ");
    expr_text(v, &mut text);
    text.push('\n');
    let out = laid_out(text);
    let expr = out.strip_prefix("v = ").unwrap_or(&out).trim();
    Ok(Value::string(expr))
}

fn encode_tfvars(v: &Value) -> Result<Value, FunctionError> {
    // Terraform's errors name argument 2 (index 1) of the one-argument call, which makes
    // them errors of the call as a whole.
    let arg_error = |text: String| FunctionError::argument(1, text);
    if v.is_null() {
        return Err(arg_error(
            "cannot encode a null value in tfvars syntax".to_string(),
        ));
    }
    if !v.is_wholly_known() {
        return Ok(Value::unknown(Type::String));
    }
    let entries = match &v.kind {
        ValueKind::Object(m) | ValueKind::Map(_, m) => m,
        _ => return Err(arg_error("invalid value to encode: must be an object whose attribute names will become the encoded variable names".to_string())),
    };
    let mut text = String::new();
    for (k, e) in entries.iter() {
        if !valid_identifier(k) {
            return Err(arg_error(format!("invalid variable name {}: must be a valid identifier, per Terraform's rules for input variable declarations", ferro_syntax::go_quote(k))));
        }
        text.push_str(k);
        text.push_str(" = ");
        expr_text(e, &mut text);
        text.push('\n');
    }
    Ok(Value::string(laid_out(text)))
}

/// Diagnostics as HCL's `Diagnostics.Error()` writes them: `RANGE: SUMMARY; DETAIL`, several
/// as a list.
fn diagnostics_text(diags: &[Diagnostic], src: &str) -> String {
    let one = |d: &Diagnostic| {
        let range = d
            .span
            .map(|s| format!("{}: ", ferro_diag::hcl_range(SOURCE_NAME, src, s)))
            .unwrap_or_default();
        format!("{range}{}; {}", d.summary, d.detail)
    };
    match diags {
        [d] => one(d),
        _ => {
            let mut out = format!("{} problems:\n", diags.len());
            for d in diags {
                out.push_str(&format!("\n- {}", one(d)));
            }
            out
        }
    }
}

/// A scope with no names: every reference is "Variables not allowed".
struct NoVariables;

impl ferro_eval::Scope for NoVariables {
    fn reference(&self, _: &Reference) -> Result<Value, Diagnostic> {
        Err(variables_not_allowed(None))
    }
}

fn variables_not_allowed(span: Option<Span>) -> Diagnostic {
    Diagnostic::error("variables-not-allowed", "Variables not allowed")
        .with_detail("Variables may not be used here.")
        .with_span_opt(span)
}

fn decode_tfvars(src: &str) -> Result<Value, FunctionError> {
    let file = FileId(0);
    let parsed = ferro_syntax::parse_file(file, src);
    let errors: Vec<Diagnostic> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    if !errors.is_empty() {
        return Err(FunctionError::new(format!(
            "invalid tfvars syntax: {}",
            diagnostics_text(&errors, src)
        )));
    }
    let mut attrs = Vec::new();
    let mut blocks = Vec::new();
    for item in &parsed.body.items {
        match item {
            ferro_syntax::ast::BodyItem::Attribute(a) => attrs.push(a),
            ferro_syntax::ast::BodyItem::Block(b) => blocks.push(
                Diagnostic::error(
                    "unexpected-block",
                    format!("Unexpected {:?} block", b.ty.name.as_str()),
                )
                .with_detail("Blocks are not allowed here.")
                .with_span(b.ty.span),
            ),
        }
    }
    if !blocks.is_empty() {
        return Err(FunctionError::new(format!(
            "invalid tfvars content: {}",
            diagnostics_text(&blocks, src)
        )));
    }
    let mut out = Vec::new();
    for a in attrs {
        let name = a.name.name.to_string();
        let (hir, id) = ferro_hir::lower_standalone_expr(file, &a.expr);
        let mut diags: Vec<Diagnostic> = hir.diagnostics().to_vec();
        ferro_hir::walk_exprs(&hir.exprs, id, &mut |e, x| match x {
            Expr::Call { .. } => diags.push(
                Diagnostic::error("function-calls-not-allowed", "Function calls not allowed")
                    .with_detail("Functions may not be called here.")
                    .with_span_opt(hir.map.span(e)),
            ),
            Expr::Ref(_) => diags.push(variables_not_allowed(hir.map.span(e))),
            _ => {}
        });
        let value = if diags.is_empty() {
            let (v, eval_diags) = ferro_eval::eval_expr(&hir, &NoVariables, id);
            diags.extend(eval_diags.into_iter().filter(|d| d.is_error()));
            v
        } else {
            Value::dynamic_unknown()
        };
        if !diags.is_empty() {
            return Err(FunctionError::new(format!(
                "invalid expression for variable {}: {}",
                ferro_syntax::go_quote(&name),
                diagnostics_text(&diags, src)
            )));
        }
        out.push((name, value));
    }
    Ok(Value::object(out.into_iter().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    fn obj(attrs: Vec<(&str, Value)>) -> Value {
        Value::object(attrs.into_iter().collect())
    }

    #[test]
    fn encode_tfvars_aligns_runs_of_one_line_attributes_as_terraform_does() {
        let v = obj(vec![
            ("string", s("hello")),
            ("number", Value::int(5)),
            ("bool", Value::bool(true)),
            ("set", Value::set(Type::String, vec![s("beep"), s("boop")])),
            ("map", obj(vec![("one", Value::int(1))])),
            (
                "object",
                obj(vec![("one", Value::int(1)), ("true", Value::bool(true))]),
            ),
            ("null", Value::null(Type::String)),
        ]);
        let want = "bool = true\nmap = {\n  one = 1\n}\nnull   = null\nnumber = 5\nobject = {\n  one  = 1\n  true = true\n}\nset    = [\"beep\", \"boop\"]\nstring = \"hello\"\n";
        assert_eq!(encode_tfvars(&v), Ok(s(want)));
        assert_eq!(encode_tfvars(&obj(Vec::new())), Ok(s("")));
        let err = encode_tfvars(&s("nope")).unwrap_err();
        assert!(err.text.starts_with("invalid value to encode"), "{err:?}");
        let err = encode_tfvars(&obj(vec![("not valid identifier", s("!"))])).unwrap_err();
        assert_eq!(err.text, "invalid variable name \"not valid identifier\": must be a valid identifier, per Terraform's rules for input variable declarations");
        assert_eq!(
            encode_tfvars(&obj(vec![("x", Value::unknown(Type::String))])),
            Ok(Value::unknown(Type::String))
        );
    }

    #[test]
    fn encode_expr_escapes_templates_and_lays_out_objects() {
        assert_eq!(encode_expr(&s("hel${lo")), Ok(s("\"hel$${lo\"")));
        assert_eq!(encode_expr(&s("hel%{lo")), Ok(s("\"hel%%{lo\"")));
        assert_eq!(encode_expr(&s("boop\\boop")), Ok(s("\"boop\\\\boop\"")));
        assert_eq!(
            encode_expr(&s("hello\nworld\n")),
            Ok(s("\"hello\\nworld\\n\""))
        );
        assert_eq!(encode_expr(&obj(Vec::new())), Ok(s("{}")));
        assert_eq!(encode_expr(&Value::tuple(Vec::new())), Ok(s("[]")));
        assert_eq!(
            encode_expr(&obj(vec![("number", Value::int(5)), ("string", s("..."))])),
            Ok(s("{\n  number = 5\n  string = \"...\"\n}"))
        );
        assert_eq!(
            encode_expr(&Value::tuple(vec![Value::int(5), s("...")])),
            Ok(s("[5, \"...\"]"))
        );
    }

    #[test]
    fn decode_tfvars_reads_constants_only() {
        assert_eq!(
            decode_tfvars("string = \"hello\"\nnumber = 2"),
            Ok(obj(vec![("number", Value::int(2)), ("string", s("hello"))]))
        );
        assert_eq!(decode_tfvars(""), Ok(obj(Vec::new())));
        let err = decode_tfvars("foo = whatever()").unwrap_err();
        assert_eq!(err.text, "invalid expression for variable \"foo\": <decode_tfvars argument>:1,7-17: Function calls not allowed; Functions may not be called here.");
        let err = decode_tfvars("foo = var.whatever").unwrap_err();
        assert!(err.text.contains("Variables not allowed"), "{err:?}");
        let err = decode_tfvars("foo {\n}\n").unwrap_err();
        assert!(
            err.text.starts_with(
                "invalid tfvars content: <decode_tfvars argument>:1,1-4: Unexpected \"foo\" block"
            ),
            "{err:?}"
        );
    }
}

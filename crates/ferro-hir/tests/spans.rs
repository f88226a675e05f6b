//! The narrower ranges diagnostics point at: `start_span` (HCL's `StartRange`) and
//! `step_span` (the `.name` or `[key]` of an access).

use ferro_diag::{FileId, Span};
use ferro_hir::{lower_standalone_expr, Expr, ExprId, FileHir};

fn lower(text: &str) -> (FileHir, ExprId) {
    let (ast, diags) = ferro_syntax::parse_expr(FileId(0), text);
    assert!(diags.is_empty(), "{text}: {diags:?}");
    let (hir, id) = lower_standalone_expr(FileId(0), &ast);
    assert!(
        hir.diagnostics().is_empty(),
        "{text}: {:?}",
        hir.diagnostics()
    );
    (hir, id)
}

fn slice(text: &str, span: Option<Span>) -> &str {
    let span = span.expect("a span");
    &text[span.range()]
}

/// `f(ARG)`: the start of ARG, as HCL reports an invalid argument.
fn arg_start(arg: &str) -> String {
    let text = format!("f({arg})");
    let (hir, id) = lower(&text);
    let Expr::Call { args, .. } = &hir.exprs[id] else {
        panic!("not a call: {text}")
    };
    slice(&text, hir.start_span(args[0])).to_string()
}

#[test]
fn start_spans_follow_hcl() {
    let cases = [
        ("[1, 2]", "["),
        ("{a = 1}", "{"),
        ("[for v in local.x : v]", "["),
        ("{for k, v in local.x : k => v}", "{"),
        ("tolist([])", "tolist("),
        ("upper ([])", "upper ("),
        ("true ? 1 : 2", "true"),
        ("1 + 2 == 3 ? 1 : 2", "1"),
        ("-1", "-"),
        ("!true", "!"),
        ("\"abc\"", "abc"),
        ("\"a\\\"b\"", "a\\\"b"),
        ("\"${local.x}\"", "\"${local.x}\""),
        ("\"a${local.x}\"", "a"),
        ("\"${local.x}b\"", "local.x"),
        ("\"${[1]}b\"", "["),
        ("\"%{if true}a%{endif}\"", "true"),
        (
            "\"%{ for v in local.x }a%{ endfor }\"",
            "%{ for v in local.x }",
        ),
        ("local.x", "local.x"),
        ("local.x[0]", "local.x[0]"),
        ("local.x[\"k\"]", "local.x[\"k\"]"),
        ("local.x[0 + 1]", "["),
        ("[1][*]", "[*]"),
        ("local.x.*.a", ".*"),
        ("(([1]))", "["),
        ("null", "null"),
    ];
    for (arg, want) in cases {
        assert_eq!(arg_start(arg), want, "start of {arg}");
    }
    // An empty string starts (empty) after its closing quote, as in HCL.
    let text = "f(\"\")";
    let (hir, id) = lower(text);
    let Expr::Call { args, .. } = &hir.exprs[id] else {
        panic!()
    };
    assert_eq!(hir.start_span(args[0]).map(|s| s.range()), Some(4..4));
}

#[test]
fn step_spans_cover_the_access() {
    for (text, want) in [
        ("{a = 1} .b", ".b"),
        ("local.x.y", ".y"),
        ("[1] [ 0 ]", "[ 0 ]"),
        ("local.x[0]", "[0]"),
        ("local.x.0", ".0"),
    ] {
        let (hir, id) = lower(text);
        assert!(
            matches!(hir.exprs[id], Expr::GetAttr { .. } | Expr::Index { .. }),
            "{text}"
        );
        assert_eq!(slice(text, hir.step_span(id)), want, "{text}");
        // The whole access is still the expression's range.
        assert_eq!(slice(text, hir.span(id)), text, "{text}");
    }
}

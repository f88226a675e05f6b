//! Error reporting: files with several independent errors report each of them with the right
//! code and position, and still produce a partial tree.

use ferro_diag::{line_col, FileId};
use ferro_syntax::ast::{BodyItem, ExprKind};
use ferro_syntax::{parse_expr, parse_file, Parsed};

fn diags(text: &str, parsed: &Parsed) -> Vec<(String, usize, usize)> {
    parsed
        .diagnostics
        .iter()
        .map(|d| {
            let s = d.span.expect("span");
            let (l, c) = line_col(text, s.start as usize);
            (d.code.clone(), l, c)
        })
        .collect()
}

fn names(parsed: &Parsed) -> Vec<String> {
    parsed
        .body
        .items
        .iter()
        .map(|i| match i {
            BodyItem::Attribute(a) => a.name.name.to_string(),
            BodyItem::Block(b) => format!("{}{{}}", b.ty.name),
        })
        .collect()
}

fn has(list: &[(String, usize, usize)], code: &str, line: usize, col: usize) -> bool {
    list.iter()
        .any(|(c, l, k)| c == code && *l == line && *k == col)
}

#[test]
fn several_independent_errors() {
    let text = "a = \nb = 1 2\nc = [1, , 2]\n\"quoted\" = 3\nok = 1\nblk {\n  x = )\n  y = 2\n}\n";
    let parsed = parse_file(FileId(0), text);
    let d = diags(text, &parsed);
    assert!(has(&d, "syntax-invalid-expression", 1, 5), "{d:?}");
    assert!(has(&d, "syntax-missing-newline", 2, 7), "{d:?}");
    assert!(has(&d, "syntax-invalid-expression", 3, 9), "{d:?}");
    assert!(has(&d, "syntax-argument-or-block-expected", 4, 1), "{d:?}");
    assert!(has(&d, "syntax-invalid-expression", 7, 7), "{d:?}");
    assert_eq!(d.len(), 5, "{d:?}");
    assert_eq!(names(&parsed), ["a", "b", "c", "ok", "blk{}"]);
    let BodyItem::Block(b) = &parsed.body.items[4] else {
        panic!("block")
    };
    assert_eq!(b.body.items.len(), 2);
    let BodyItem::Attribute(a) = &parsed.body.items[0] else {
        panic!("attr")
    };
    assert_eq!(a.expr.kind, ExprKind::Error);
}

#[test]
fn unclosed_brace_and_strings() {
    let text = "a = \"open\nb = 2\nblock \"x\" {\n  c = 3\n";
    let parsed = parse_file(FileId(0), text);
    let d = diags(text, &parsed);
    assert!(has(&d, "syntax-unterminated-string", 1, 5), "{d:?}");
    // Reported where HCL reports it: at the end of the file.
    assert!(has(&d, "syntax-unclosed-brace", 5, 1), "{d:?}");
    assert_eq!(names(&parsed), ["a", "b", "block{}"]);
    let unclosed = parsed
        .diagnostics
        .iter()
        .find(|d| d.code == "syntax-unclosed-brace")
        .unwrap();
    assert_eq!(unclosed.summary, "Argument or block definition required");
}

#[test]
fn unterminated_heredoc_and_comment() {
    let text = "a = 1\n/* c\nb = 2 */\nc = <<EOT\nno end\n";
    let parsed = parse_file(FileId(0), text);
    let d = diags(text, &parsed);
    assert_eq!(d, [("syntax-unterminated-heredoc".to_string(), 4, 5)]);
    assert_eq!(names(&parsed), ["a", "c"]);
    let text = "a = 1\n/* never closed\nb = 2\n";
    let parsed = parse_file(FileId(0), text);
    assert_eq!(
        diags(text, &parsed),
        [("syntax-unterminated-comment".to_string(), 2, 1)]
    );
    assert_eq!(parsed.comments.len(), 1);
}

#[test]
fn invalid_characters() {
    let text = "a = 1 @ 2\nb = \u{0}3\nc = 4\n";
    let parsed = parse_file(FileId(0), text);
    let d = diags(text, &parsed);
    assert!(has(&d, "syntax-invalid-character", 1, 7), "{d:?}");
    assert!(has(&d, "syntax-invalid-character", 2, 5), "{d:?}");
    assert_eq!(names(&parsed), ["a", "b", "c"]);
}

#[test]
fn stray_closing_brace() {
    let text = "a = 1\n}\nb = 2\n";
    let parsed = parse_file(FileId(0), text);
    assert_eq!(
        diags(text, &parsed),
        [("syntax-argument-or-block-expected".to_string(), 2, 1)]
    );
    assert_eq!(names(&parsed), ["a", "b"]);
}

#[test]
fn template_errors() {
    let text = "a = \"%{ endif }\"\nb = \"%{ if x }y\"\nc = \"\\q\"\n";
    let parsed = parse_file(FileId(0), text);
    let d = diags(text, &parsed);
    assert!(has(&d, "syntax-template-directive-mismatch", 1, 6), "{d:?}");
    // An unclosed directive is reported where the template ends (its closing quote), as HCL
    // reports it.
    assert!(
        has(&d, "syntax-unclosed-template-directive", 2, 16),
        "{d:?}"
    );
    assert!(has(&d, "syntax-invalid-escape", 3, 6), "{d:?}");
    assert_eq!(names(&parsed), ["a", "b", "c"]);
}

#[test]
fn parse_expr_trailing_input() {
    let (e, d) = parse_expr(FileId(0), "1 + 2");
    assert!(d.is_empty());
    assert!(matches!(e.kind, ExprKind::Binary { .. }));
    assert_eq!((e.span.start, e.span.end), (0, 5));
    let (_, d) = parse_expr(FileId(0), "1 + 2 3");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].span.map(|s| s.start), Some(6));
    // Nothing at all: a bare expression has no newline, and HCL reports the end of the input
    // as an invalid token there (`-var 'x='` for a variable of type `any`).
    let (e, d) = parse_expr(FileId(0), "");
    assert_eq!(e.kind, ExprKind::Error);
    assert_eq!(d[0].code, "syntax-invalid-expression");
    assert_eq!(d[0].summary, "Invalid expression");
    // Nor anything more at that point: a conditional cut short is one error.
    let (_, d) = parse_expr(FileId(0), "true ?");
    assert_eq!(d.len(), 1, "{d:?}");
}

//! Property tests over randomly generated configurations (fixed seeds, so failures reproduce):
//! the generated text parses without diagnostics, formatting is idempotent, and formatting does
//! not change the syntax tree (spans aside).

mod gen;

use ferro_diag::{FileId, Span};
use ferro_syntax::ast::{Body, BodyItem, Expr, ExprKind, Template, TemplatePart};
use ferro_syntax::{format_source, parse_file};

const CASES: u64 = 400;

/// The tree without positions, normalised for the two rewrites terraform fmt (and so ferro fmt)
/// makes: bare block labels are quoted (`data x "y"` becomes `data "x" "y"`), and an argument
/// whose whole value is one interpolation is unwrapped (`a = "${x}"` becomes `a = x`, or `a = (x)`
/// when `x` spans lines).
fn blank(mut b: Body) -> Body {
    b.map_spans(&mut |s| Span {
        file: s.file,
        start: 0,
        end: 0,
    });
    normalise(&mut b);
    b
}

fn normalise(b: &mut Body) {
    for item in &mut b.items {
        match item {
            BodyItem::Block(blk) => {
                blk.labels.iter_mut().for_each(|l| l.quoted = true);
                normalise(&mut blk.body);
            }
            BodyItem::Attribute(a) => {
                if let ExprKind::Template(Template {
                    parts,
                    heredoc: None,
                }) = &mut a.expr.kind
                {
                    if let [TemplatePart::Interpolation { expr, .. }] = parts.as_mut_slice() {
                        let inner = std::mem::replace(
                            &mut **expr,
                            Expr {
                                kind: ExprKind::Null,
                                span: a.expr.span,
                            },
                        );
                        a.expr = inner;
                    }
                }
                // When the unwrapped expression spans lines, fmt puts it in parentheses; so
                // one level of parentheses around a whole value is not compared.
                if let ExprKind::Parens(inner) = &mut a.expr.kind {
                    let inner = std::mem::replace(
                        &mut **inner,
                        Expr {
                            kind: ExprKind::Null,
                            span: a.expr.span,
                        },
                    );
                    a.expr = inner;
                }
            }
        }
    }
}

#[test]
fn fmt_is_idempotent_and_keeps_the_tree() {
    let mut bytes = 0;
    for seed in 0..CASES {
        let src = gen::Gen::new(seed).file();
        if std::env::var_os("PROPS_DUMP").is_some() {
            std::fs::write(format!("/tmp/props_{seed}.tf"), &src).expect("dump");
        }
        bytes += src.len();
        let parsed = parse_file(FileId(0), &src);
        assert!(
            parsed.diagnostics.is_empty(),
            "seed {seed}: generated input does not parse: {:?}\n{src}",
            parsed.diagnostics
        );
        let once =
            format_source(&src).unwrap_or_else(|d| panic!("seed {seed}: fmt failed: {d:?}\n{src}"));
        let twice = format_source(&once).unwrap_or_else(|d| {
            panic!("seed {seed}: fmt of fmt failed: {d:?}\n--- input\n{src}\n--- formatted\n{once}")
        });
        assert_eq!(
            once, twice,
            "seed {seed}: fmt is not idempotent\n--- input\n{src}"
        );
        let reparsed = parse_file(FileId(0), &once);
        assert!(
            reparsed.diagnostics.is_empty(),
            "seed {seed}: {:?}\n{once}",
            reparsed.diagnostics
        );
        let (before, after) = (blank(parsed.body), blank(reparsed.body));
        if before != after {
            if std::env::var_os("PROPS_DUMP").is_some() {
                std::fs::write("/tmp/props_before.txt", format!("{before:#?}")).expect("dump");
                std::fs::write("/tmp/props_after.txt", format!("{after:#?}")).expect("dump");
            }
            panic!("seed {seed}: fmt changed the tree\n--- input\n{src}\n--- formatted\n{once}");
        }
    }
    // The generator must produce substantial inputs for the test to mean anything.
    assert!(bytes > CASES as usize * 100, "generated only {bytes} bytes");
}

#[test]
fn blanking_spans_compares_structure_only() {
    // A guard for the comparison above: different trees stay different after blanking.
    let a = parse_file(FileId(0), "a = [1 + 2]\n").body;
    let b = parse_file(FileId(0), "a = [(1 + 2)]\n").body;
    let c = parse_file(FileId(0), "a   =   [1+2]\n").body;
    assert_ne!(blank(a.clone()), blank(b));
    assert_eq!(blank(a), blank(c));
}

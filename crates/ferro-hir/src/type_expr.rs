//! Type constraint expressions (`string`, `list(number)`, `object({a=string, b=optional(bool)})`)
//! lowered from syntax into `Type`.

use ferro_diag::{Diagnostic, FileId};
use ferro_syntax::ast::{Expr, ExprKind, ObjectKey};
use ferro_value::{ObjectType, Type};
use std::collections::BTreeMap;

fn invalid(file: FileId, span: ferro_diag::Span, detail: impl Into<String>) -> Diagnostic {
    let _ = file;
    Diagnostic::error("invalid-type-specification", "Invalid type specification")
        .with_detail(detail)
        .with_span(span)
}

/// Lower a type constraint; errors are diagnostics with the offending range.
pub fn lower_type_expr(file: FileId, e: &Expr) -> Result<Type, Diagnostic> {
    lower(file, e, false).map(|(t, _)| t)
}

fn keyword(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Variable(id) => Some(&id.name),
        _ => None,
    }
}

/// Returns the type and whether it was wrapped in `optional(...)` (only allowed as an object attribute).
fn lower(file: FileId, e: &Expr, in_object: bool) -> Result<(Type, bool), Diagnostic> {
    if let ExprKind::Parens(inner) = &e.kind {
        return lower(file, inner, in_object);
    }
    if let Some(k) = keyword(e) {
        return match k {
            "string" => Ok((Type::String, false)),
            "number" => Ok((Type::Number, false)),
            "bool" => Ok((Type::Bool, false)),
            "any" => Ok((Type::Dynamic, false)),
            "list" | "map" | "set" => Err(invalid(
                file,
                e.span,
                format!("The {k} type constructor requires one argument specifying the element type."),
            )),
            "object" | "tuple" => Err(invalid(
                file,
                e.span,
                format!("The {k} type constructor requires one argument specifying the element types."),
            )),
            other => Err(invalid(file, e.span, format!("The keyword {other:?} is not a valid type specification."))),
        };
    }
    let ExprKind::FunctionCall { name, args, .. } = &e.kind else {
        return Err(invalid(file, e.span, "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string)."));
    };
    let one_arg = |what: &str| -> Result<&Expr, Diagnostic> {
        if args.len() != 1 {
            return Err(invalid(file, e.span, format!("The {what} type constructor requires exactly one argument.")));
        }
        Ok(&args[0])
    };
    match name.name.as_str() {
        "list" => Ok((Type::list(lower(file, one_arg("list")?, false)?.0), false)),
        "set" => Ok((Type::set(lower(file, one_arg("set")?, false)?.0), false)),
        "map" => Ok((Type::map(lower(file, one_arg("map")?, false)?.0), false)),
        "tuple" => {
            let arg = one_arg("tuple")?;
            let ExprKind::Tuple(elems) = &arg.kind else {
                return Err(invalid(file, arg.span, "The tuple type constructor requires a list of element types, like tuple([string, number])."));
            };
            let mut tys = Vec::new();
            for el in elems {
                tys.push(lower(file, el, false)?.0);
            }
            Ok((Type::Tuple(tys), false))
        }
        "object" => {
            let arg = one_arg("object")?;
            let ExprKind::Object(items) = &arg.kind else {
                return Err(invalid(file, arg.span, "The object type constructor requires an object of attribute types, like object({name=string})."));
            };
            let mut attrs = BTreeMap::new();
            let mut optional = std::collections::BTreeSet::new();
            for item in items {
                let key = match &item.key {
                    ObjectKey::Ident(id) => id.name.clone(),
                    ObjectKey::Expr(k) => match &k.kind {
                        ExprKind::Template(t) if t.parts.len() <= 1 => match t.parts.first() {
                            Some(ferro_syntax::ast::TemplatePart::Literal { text, .. }) => text.clone(),
                            None => String::new(),
                            _ => return Err(invalid(file, k.span, "Object type attribute names must be literal names.")),
                        },
                        _ => return Err(invalid(file, k.span, "Object type attribute names must be literal names.")),
                    },
                };
                let (t, opt) = lower(file, &item.value, true)?;
                if opt {
                    optional.insert(key.clone());
                }
                attrs.insert(key, t);
            }
            Ok((Type::Object(ObjectType { attrs, optional }), false))
        }
        "optional" => {
            if !in_object {
                return Err(invalid(file, e.span, "Keyword \"optional\" is valid only as a modifier for object type attributes."));
            }
            if args.is_empty() || args.len() > 2 {
                return Err(invalid(file, e.span, "The optional modifier requires the attribute type and, optionally, a default value."));
            }
            Ok((lower(file, &args[0], false)?.0, true))
        }
        other => Err(invalid(file, name.span, format!("Keyword {other:?} is not a valid type constructor."))),
    }
}


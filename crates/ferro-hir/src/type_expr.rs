//! Type constraint expressions (`string`, `list(number)`, `object({a=string, b=optional(bool)})`)
//! lowered from syntax into `Type`.

use ferro_diag::{Diagnostic, FileId};
use ferro_syntax::ast::{Expr, ExprKind, ObjectKey, UnaryOp};
use ferro_value::defaults::TypeDefaults;
use ferro_value::ValueMap;
use ferro_value::{Number, ObjectType, Type, Value};
use std::collections::BTreeMap;

fn invalid(file: FileId, span: ferro_diag::Span, detail: impl Into<String>) -> Diagnostic {
    let _ = file;
    Diagnostic::error("invalid-type-specification", "Invalid type specification")
        .with_detail(detail)
        .with_span(span)
}

/// Lower a type constraint; errors are diagnostics with the offending range.
pub fn lower_type_expr(file: FileId, e: &Expr) -> Result<Type, Diagnostic> {
    lower(file, e, false).map(|l| l.ty)
}

/// Lower a type constraint as HCL's `typeexpr.TypeConstraintWithDefaults` reads it (the
/// argument of `convert`): no legacy forms; defaults of `optional(type, default)` attributes.
pub fn lower_type_constraint(
    file: FileId,
    e: &Expr,
) -> Result<(Type, Option<TypeDefaults>), Diagnostic> {
    lower(file, e, false).map(|l| (l.ty, l.defaults.filter(|d| !d.is_empty())))
}

/// Lower a type constraint together with the defaults of its `optional(type, default)`
/// attributes (None when it has none).
///
/// This is a variable's `type`, so the legacy forms Terraform 1.0.3 knows are handled as it
/// handles them: bare `list` and `map` mean `list(any)` and `map(any)`; quoted types are errors
/// that say how to write them now.
pub fn lower_type_expr_with_defaults(
    file: FileId,
    e: &Expr,
) -> Result<(Type, Option<TypeDefaults>), Diagnostic> {
    match keyword(e) {
        Some("list") => return Ok((Type::list(Type::Dynamic), None)),
        Some("map") => return Ok((Type::map(Type::Dynamic), None)),
        _ => {}
    }
    if let Some(quoted) = quoted_text(e) {
        let remove = "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform.";
        let (summary, detail) = match quoted.as_str() {
            "string" => ("Invalid quoted type constraints", format!("{remove} Remove the quotes around \"string\".")),
            k @ ("list" | "map") => ("Invalid quoted type constraints", format!("{remove} Remove the quotes around \"{k}\" and write {k}(string) instead to explicitly indicate that the {k} elements are strings.")),
            _ => ("Invalid legacy variable type hint", "To provide a full type expression, remove the surrounding quotes and give the type expression directly.".to_string()),
        };
        return Err(Diagnostic::error("invalid-type-specification", summary)
            .with_detail(detail)
            .with_span(e.span));
    }
    lower(file, e, false).map(|l| (l.ty, l.defaults.filter(|d| !d.is_empty())))
}

/// The text of a quoted string without interpolations.
fn quoted_text(e: &Expr) -> Option<String> {
    let ExprKind::Template(t) = &e.kind else {
        return None;
    };
    if t.heredoc.is_some() {
        return None;
    }
    t.literal_text()
}

/// One lowered level: the type, whether it was `optional(...)`, its default if one was given,
/// and defaults nested inside it.
struct Lowered {
    ty: Type,
    optional: bool,
    default: Option<Value>,
    defaults: Option<TypeDefaults>,
}

impl Lowered {
    fn plain(ty: Type) -> Self {
        Lowered {
            ty,
            optional: false,
            default: None,
            defaults: None,
        }
    }
    fn with_element(ty: Type, inner: Option<TypeDefaults>) -> Self {
        Lowered {
            ty,
            optional: false,
            default: None,
            defaults: inner.map(|d| TypeDefaults {
                element: Some(Box::new(d)),
                ..Default::default()
            }),
        }
    }
}

/// The value of a literal expression (the only kind allowed as an optional attribute's default).
fn const_value(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Null => Some(Value::null(Type::Dynamic)),
        ExprKind::Bool(b) => Some(Value::bool(*b)),
        ExprKind::Number(n) => Number::parse(n).map(Value::number),
        ExprKind::Parens(inner) => const_value(inner),
        ExprKind::Template(t) => t.literal_text().map(Value::string),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => const_value(operand)?
            .as_number()
            .map(|n| Value::number(n.neg())),
        ExprKind::Tuple(items) => items
            .iter()
            .map(const_value)
            .collect::<Option<Vec<_>>>()
            .map(Value::tuple),
        ExprKind::Object(items) => {
            let mut m = ValueMap::new();
            for it in items {
                let key = match &it.key {
                    ObjectKey::Ident(id) => id.name.to_string(),
                    ObjectKey::Expr(k) => const_value(k)?.as_str()?.to_string(),
                };
                m.insert(key, const_value(&it.value)?);
            }
            Some(Value::object(m))
        }
        _ => None,
    }
}

fn keyword(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Variable(id) => Some(&id.name),
        _ => None,
    }
}

/// Lower one level; `optional(...)` is only allowed as an object attribute (`in_object`).
fn lower(file: FileId, e: &Expr, in_object: bool) -> Result<Lowered, Diagnostic> {
    if let ExprKind::Parens(inner) = &e.kind {
        return lower(file, inner, in_object);
    }
    if let Some(k) = keyword(e) {
        return match k {
            "string" => Ok(Lowered::plain(Type::String)),
            "number" => Ok(Lowered::plain(Type::Number)),
            "bool" => Ok(Lowered::plain(Type::Bool)),
            "any" => Ok(Lowered::plain(Type::Dynamic)),
            "list" | "map" | "set" => Err(invalid(
                file,
                e.span,
                format!(
                    "The {k} type constructor requires one argument specifying the element type."
                ),
            )),
            "object" | "tuple" => Err(invalid(
                file,
                e.span,
                format!(
                    "The {k} type constructor requires one argument specifying the element types."
                ),
            )),
            other => Err(invalid(
                file,
                e.span,
                format!("The keyword {other:?} is not a valid type specification."),
            )),
        };
    }
    let ExprKind::FunctionCall(call) = &e.kind else {
        return Err(invalid(file, e.span, "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string)."));
    };
    let (name, args) = (&call.name, &call.args);
    let one_arg = |what: &str| -> Result<&Expr, Diagnostic> {
        if args.len() != 1 {
            return Err(invalid(
                file,
                e.span,
                format!("The {what} type constructor requires exactly one argument."),
            ));
        }
        Ok(&args[0])
    };
    match name.name.as_str() {
        "list" => {
            let l = lower(file, one_arg("list")?, false)?;
            Ok(Lowered::with_element(Type::list(l.ty), l.defaults))
        }
        "set" => {
            let l = lower(file, one_arg("set")?, false)?;
            Ok(Lowered::with_element(Type::set(l.ty), l.defaults))
        }
        "map" => {
            let l = lower(file, one_arg("map")?, false)?;
            Ok(Lowered::with_element(Type::map(l.ty), l.defaults))
        }
        "tuple" => {
            let arg = one_arg("tuple")?;
            let ExprKind::Tuple(elems) = &arg.kind else {
                return Err(invalid(file, arg.span, "The tuple type constructor requires a list of element types, like tuple([string, number])."));
            };
            let mut tys = Vec::new();
            for el in elems {
                tys.push(lower(file, el, false)?.ty);
            }
            Ok(Lowered::plain(Type::Tuple(tys.into())))
        }
        "object" => {
            let arg = one_arg("object")?;
            let ExprKind::Object(items) = &arg.kind else {
                return Err(invalid(file, arg.span, "The object type constructor requires an object of attribute types, like object({name=string})."));
            };
            let mut attrs = BTreeMap::new();
            let mut optional = std::collections::BTreeSet::new();
            let mut defaults = TypeDefaults::default();
            for item in items {
                let key = match &item.key {
                    ObjectKey::Ident(id) => id.name.to_string(),
                    ObjectKey::Expr(k) => match &k.kind {
                        ExprKind::Template(t) if t.parts.len() <= 1 => match t.parts.first() {
                            Some(ferro_syntax::ast::TemplatePart::Literal { text, .. }) => {
                                text.to_string()
                            }
                            None => String::new(),
                            _ => {
                                return Err(invalid(
                                    file,
                                    k.span,
                                    "Object type attribute names must be literal names.",
                                ))
                            }
                        },
                        _ => {
                            return Err(invalid(
                                file,
                                k.span,
                                "Object type attribute names must be literal names.",
                            ))
                        }
                    },
                };
                let l = lower(file, &item.value, true)?;
                if l.optional {
                    optional.insert(key.clone());
                }
                if let Some(d) = l.default {
                    defaults.attrs.insert(key.clone(), d);
                }
                if let Some(d) = l.defaults {
                    defaults.children.insert(key.clone(), d);
                }
                attrs.insert(key, l.ty);
            }
            Ok(Lowered {
                ty: Type::from_object(ObjectType { attrs, optional }),
                optional: false,
                default: None,
                defaults: Some(defaults),
            })
        }
        "optional" => {
            if !in_object {
                return Err(invalid(
                    file,
                    e.span,
                    "Keyword \"optional\" is valid only as a modifier for object type attributes.",
                ));
            }
            if args.is_empty() || args.len() > 2 {
                return Err(invalid(file, e.span, "The optional modifier requires the attribute type and, optionally, a default value."));
            }
            let inner = lower(file, &args[0], false)?;
            let default =
                match args.get(1) {
                    None => None,
                    Some(d) => match const_value(d) {
                        // Nested optional attributes may be left out of the default.
                        Some(v) => match ferro_value::convert::convert(&v, &inner.ty) {
                            Ok(_) => Some(v),
                            Err(err) => {
                                return Err(invalid(
                                    file,
                                    d.span,
                                    format!(
                                        "Invalid default value for optional attribute: {}.",
                                        err.message
                                    ),
                                ))
                            }
                        },
                        None => return Err(invalid(
                            file,
                            d.span,
                            "The default value of an optional attribute must be a literal value.",
                        )),
                    },
                };
            Ok(Lowered {
                ty: inner.ty,
                optional: true,
                default,
                defaults: inner.defaults,
            })
        }
        other => Err(invalid(
            file,
            name.span,
            format!("Keyword {other:?} is not a valid type constructor."),
        )),
    }
}

//! Operators with Terraform's semantics: unknown operands give unknown results, marks propagate,
//! operands are converted to the operator's type first (so `"5" + 1` is 6).

use crate::convert::convert;
use crate::{Marks, Number, Type, Value, ValueKind};
use std::cmp::Ordering;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    Lt,
    LtEq,
    Gt,
    GtEq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicOp {
    And,
    Or,
}

/// An operator failure; `operand` says which side (0 left, 1 right, None: the operation itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpError {
    pub operand: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for OpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OpError {}

fn kind_rank(v: &Value) -> u8 {
    match &v.kind {
        ValueKind::Bool(_) => 0,
        ValueKind::Number(_) => 1,
        ValueKind::String(_) => 2,
        ValueKind::List(..) => 3,
        ValueKind::Set(..) => 4,
        ValueKind::Map(..) => 5,
        ValueKind::Tuple(_) => 6,
        ValueKind::Object(_) => 7,
        ValueKind::Unknown(_) => 8,
        ValueKind::Null(_) => 9,
    }
}

/// Total order for set elements (see `Ord for Value`): known values by kind (bool, number,
/// string, list, set, map, tuple, object) then by content, then unknowns, then nulls; ties
/// broken by type and marks so that the order agrees with raw equality.
pub fn set_order(a: &Value, b: &Value) -> Ordering {
    let by_kind = kind_rank(a).cmp(&kind_rank(b));
    if by_kind != Ordering::Equal {
        return by_kind;
    }
    let by_content = match (&a.kind, &b.kind) {
        (ValueKind::Bool(x), ValueKind::Bool(y)) => x.cmp(y),
        (ValueKind::Number(x), ValueKind::Number(y)) => x.cmp(y),
        (ValueKind::String(x), ValueKind::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (ValueKind::List(tx, x), ValueKind::List(ty, y))
        | (ValueKind::Set(tx, x), ValueKind::Set(ty, y)) => {
            x.iter().cmp(y.iter()).then_with(|| tx.cmp(ty))
        }
        (ValueKind::Map(tx, x), ValueKind::Map(ty, y)) => {
            x.iter().cmp(y.iter()).then_with(|| tx.cmp(ty))
        }
        (ValueKind::Tuple(x), ValueKind::Tuple(y)) => x.iter().cmp(y.iter()),
        (ValueKind::Object(x), ValueKind::Object(y)) => x.iter().cmp(y.iter()),
        (ValueKind::Unknown(x), ValueKind::Unknown(y))
        | (ValueKind::Null(x), ValueKind::Null(y)) => x.cmp(y),
        _ => Ordering::Equal,
    };
    by_content.then_with(|| a.marks.cmp(&b.marks))
}

/// `a == b` (bool, or unknown bool when either side is unknown).
pub fn equals(a: &Value, b: &Value) -> Value {
    let (ua, ma) = a.deep_unmark();
    let (ub, mb) = b.deep_unmark();
    let r = match eq_inner(&ua, &ub) {
        Some(x) => Value::bool(x),
        None => Value::unknown(Type::Bool),
    };
    r.with_marks(ma.union(mb))
}

/// `a != b`.
pub fn not_equals(a: &Value, b: &Value) -> Value {
    let e = equals(a, b);
    match e.as_bool() {
        Some(x) => Value::bool(!x).with_marks(e.marks),
        None => e,
    }
}

/// Whether a value of type `a` could turn out to be of type `b` once dynamic parts are known.
fn conforms(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Dynamic, _) | (_, Type::Dynamic) => true,
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => conforms(x, y),
        (Type::Tuple(x), Type::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| conforms(p, q))
        }
        (Type::Object(x), Type::Object(y)) => {
            x.attrs.len() == y.attrs.len()
                && x.attrs
                    .iter()
                    .zip(&y.attrs)
                    .all(|((ka, ta), (kb, tb))| ka == kb && conforms(ta, tb))
        }
        _ => a == b,
    }
}

/// True when an unknown value of a type containing Dynamic appears anywhere in `v`.
fn has_unknown_dynamic(v: &Value) -> bool {
    match &v.kind {
        ValueKind::Unknown(t) => t.has_dynamic(),
        _ => v.children().any(has_unknown_dynamic),
    }
}

/// cty `Equals` on unmarked values: `None` is an unknown result.
fn eq_inner(a: &Value, b: &Value) -> Option<bool> {
    match (a.is_unknown(), b.is_unknown()) {
        (true, true) => return None,
        (false, true) | (true, false) => {
            let (k, u) = if a.is_unknown() { (b, a) } else { (a, b) };
            if k.is_null() || u.ty().has_dynamic() {
                return None;
            }
            return if k.ty() != u.ty() { Some(false) } else { None };
        }
        _ => {}
    }
    match (a.is_null(), b.is_null()) {
        (true, true) => return Some(true),
        (true, false) | (false, true) => return Some(false),
        _ => {}
    }
    let (ta, tb) = (a.ty(), b.ty());
    if has_unknown_dynamic(a) || has_unknown_dynamic(b) {
        if !conforms(&ta, &tb) {
            return Some(false);
        }
        return None;
    }
    if ta != tb {
        return Some(false);
    }
    let pairwise = |xs: &mut dyn Iterator<Item = (&Value, &Value)>| -> Option<bool> {
        for (x, y) in xs {
            match eq_inner(x, y) {
                None => return None,
                Some(false) => return Some(false),
                Some(true) => {}
            }
        }
        Some(true)
    };
    match (&a.kind, &b.kind) {
        (ValueKind::Bool(x), ValueKind::Bool(y)) => Some(x == y),
        (ValueKind::Number(x), ValueKind::Number(y)) => Some(x == y),
        (ValueKind::String(x), ValueKind::String(y)) => Some(x == y),
        (ValueKind::List(_, x), ValueKind::List(_, y))
        | (ValueKind::Tuple(x), ValueKind::Tuple(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            pairwise(&mut x.iter().zip(y.iter()))
        }
        (ValueKind::Set(_, x), ValueKind::Set(_, y)) => {
            if !a.is_wholly_known() || !b.is_wholly_known() {
                return None;
            }
            Some(x == y)
        }
        (ValueKind::Map(_, x), ValueKind::Map(_, y))
        | (ValueKind::Object(x), ValueKind::Object(y)) => {
            if x.len() != y.len() || !x.keys().eq(y.keys()) {
                return Some(false);
            }
            pairwise(&mut x.values().zip(y.values()))
        }
        _ => Some(false),
    }
}

/// An operand converted to the operator's parameter type, with the marks found on it.
fn operand(v: &Value, i: usize, ty: &Type) -> Result<(Value, Marks), OpError> {
    let (u, marks) = v.deep_unmark();
    let c = convert(&u, ty).map_err(|e| OpError {
        operand: Some(i),
        message: e.message,
    })?;
    Ok((c, marks))
}

/// Convert both operands; nulls are errors, and any unknown operand makes the result unknown
/// (`Ok(Err(marks))`), otherwise `Ok(Ok(values, marks))`.
#[allow(clippy::type_complexity)]
fn operands(args: &[&Value], ty: &Type) -> Result<Result<(Vec<Value>, Marks), Marks>, OpError> {
    let mut vals = Vec::with_capacity(args.len());
    let mut marks = Marks::NONE;
    for (i, a) in args.iter().enumerate() {
        let (c, m) = operand(a, i, ty)?;
        marks = marks.union(m);
        vals.push(c);
    }
    for (i, v) in vals.iter().enumerate() {
        if v.is_null() {
            return Err(OpError {
                operand: Some(i),
                message: "argument must not be null".into(),
            });
        }
    }
    if vals.iter().any(Value::is_unknown) {
        return Ok(Err(marks));
    }
    Ok(Ok((vals, marks)))
}

fn num(v: &Value) -> &Number {
    v.as_number().expect("converted to number")
}

pub fn arith(op: ArithOp, a: &Value, b: &Value) -> Result<Value, OpError> {
    let (vals, marks) = match operands(&[a, b], &Type::Number)? {
        Err(marks) => return Ok(Value::unknown(Type::Number).with_marks(marks)),
        Ok(x) => x,
    };
    let (x, y) = (num(&vals[0]), num(&vals[1]));
    let r = match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div => x.div(y),
        ArithOp::Mod => x.rem(y),
    };
    r.map(|n| Value::number(n).with_marks(marks))
        .map_err(|message| OpError {
            operand: None,
            message,
        })
}

pub fn compare(op: CompareOp, a: &Value, b: &Value) -> Result<Value, OpError> {
    let (vals, marks) = match operands(&[a, b], &Type::Number)? {
        Err(marks) => return Ok(Value::unknown(Type::Bool).with_marks(marks)),
        Ok(x) => x,
    };
    let ord = num(&vals[0]).cmp(num(&vals[1]));
    let r = match op {
        CompareOp::Lt => ord == Ordering::Less,
        CompareOp::LtEq => ord != Ordering::Greater,
        CompareOp::Gt => ord == Ordering::Greater,
        CompareOp::GtEq => ord != Ordering::Less,
    };
    Ok(Value::bool(r).with_marks(marks))
}

pub fn logic(op: LogicOp, a: &Value, b: &Value) -> Result<Value, OpError> {
    let (vals, marks) = match operands(&[a, b], &Type::Bool)? {
        Err(marks) => return Ok(Value::unknown(Type::Bool).with_marks(marks)),
        Ok(x) => x,
    };
    let (x, y) = (
        vals[0].as_bool() == Some(true),
        vals[1].as_bool() == Some(true),
    );
    let r = match op {
        LogicOp::And => x && y,
        LogicOp::Or => x || y,
    };
    Ok(Value::bool(r).with_marks(marks))
}

/// Which operand of a binary operator decided its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// The short circuit of `&&` and `||` (HCL 2.23, Terraform 1.12): given both operands already
/// converted to bool and unmarked, the result one side decides on its own, and that side, whose
/// diagnostics alone are then kept. `None`: no side decides, the operator runs as usual.
///
/// A single known controlling value decides (`false` for `&&`, `true` for `||`), on either
/// side; a known null counts as not true, as cty's `Value::True` says, so `null && x` is false.
/// An unknown side decides when the other is known and does not control (the result is then
/// unknown), and when both are unknown the left decides unless `left_failed` (its evaluation
/// reported an error: both sides' errors are then wanted).
pub fn logic_short_circuit(
    op: LogicOp,
    a: &Value,
    b: &Value,
    left_failed: bool,
) -> Option<(Value, Side)> {
    let controlling = matches!(op, LogicOp::Or);
    // cty's `True()`: only a known, non-null true is true.
    let is = |v: &Value, want: bool| (v.as_bool() == Some(true)) == want;
    let (a_known, b_known) = (!a.is_unknown(), !b.is_unknown());
    let unknown = || Value::unknown(Type::Bool);
    if !a_known && !b_known {
        return (!left_failed).then(|| (unknown(), Side::Left));
    }
    if a_known && is(a, controlling) {
        return Some((Value::bool(controlling), Side::Left));
    }
    if b_known && is(b, controlling) {
        return Some((Value::bool(controlling), Side::Right));
    }
    // The known side does not control: the unknown one decides, and the result is unknown.
    if !a_known {
        return Some((unknown(), Side::Left));
    }
    if !b_known {
        return Some((unknown(), Side::Right));
    }
    None
}

pub fn not(a: &Value) -> Result<Value, OpError> {
    let (vals, marks) = match operands(&[a], &Type::Bool)? {
        Err(marks) => return Ok(Value::unknown(Type::Bool).with_marks(marks)),
        Ok(x) => x,
    };
    Ok(Value::bool(vals[0].as_bool() != Some(true)).with_marks(marks))
}

pub fn neg(a: &Value) -> Result<Value, OpError> {
    let (vals, marks) = match operands(&[a], &Type::Number)? {
        Err(marks) => return Ok(Value::unknown(Type::Number).with_marks(marks)),
        Ok(x) => x,
    };
    Ok(Value::number(num(&vals[0]).neg()).with_marks(marks))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Value {
        Value::number(Number::parse(s).unwrap())
    }
    fn s(x: &str) -> Value {
        Value::string(x)
    }

    #[test]
    fn arithmetic() {
        assert_eq!(
            arith(ArithOp::Add, &s("5"), &Value::int(1)).unwrap(),
            Value::int(6)
        );
        assert_eq!(arith(ArithOp::Add, &n("0.1"), &n("0.2")).unwrap(), n("0.3"));
        assert_eq!(
            arith(ArithOp::Mod, &Value::int(-7), &Value::int(3)).unwrap(),
            Value::int(-1)
        );
        assert_eq!(
            arith(ArithOp::Div, &Value::int(7), &Value::int(2)).unwrap(),
            n("3.5")
        );
        let e = arith(ArithOp::Add, &Value::int(1), &s("x")).unwrap_err();
        assert_eq!(
            e,
            OpError {
                operand: Some(1),
                message: "a number is required".into()
            }
        );
        let e = arith(ArithOp::Add, &Value::bool(true), &Value::int(1)).unwrap_err();
        assert_eq!(e.operand, Some(0));
        assert_eq!(e.message, "number required");
        let e = arith(ArithOp::Add, &Value::null(Type::Number), &Value::int(1)).unwrap_err();
        assert_eq!(e.message, "argument must not be null");
        assert_eq!(e.operand, Some(0));
        let u = arith(ArithOp::Mul, &Value::dynamic_unknown(), &Value::int(1)).unwrap();
        assert_eq!(u, Value::unknown(Type::Number));
        let m = arith(
            ArithOp::Sub,
            &Value::int(3).mark_sensitive(),
            &Value::int(1),
        )
        .unwrap();
        assert!(m.is_sensitive());
        assert_eq!(m.unmarked(), Value::int(2));
        let mu = arith(
            ArithOp::Sub,
            &Value::int(3).mark_sensitive(),
            &Value::unknown(Type::Number),
        )
        .unwrap();
        assert!(mu.is_sensitive() && mu.is_unknown());
        assert!(arith(ArithOp::Div, &Value::int(0), &Value::int(0)).is_err());
        assert_eq!(neg(&s("2")).unwrap(), Value::int(-2));
    }

    #[test]
    fn comparison_and_logic() {
        assert_eq!(
            compare(CompareOp::Lt, &Value::int(1), &n("1.5")).unwrap(),
            Value::bool(true)
        );
        assert_eq!(
            compare(CompareOp::GtEq, &Value::int(1), &n("1.0")).unwrap(),
            Value::bool(true)
        );
        assert_eq!(
            compare(CompareOp::Gt, &s("10"), &Value::int(9)).unwrap(),
            Value::bool(true)
        );
        assert!(compare(CompareOp::Gt, &s("a"), &Value::int(9)).is_err());
        assert_eq!(
            logic(LogicOp::Or, &Value::unknown(Type::Bool), &Value::bool(true)).unwrap(),
            Value::unknown(Type::Bool)
        );
        assert_eq!(
            logic(LogicOp::And, &Value::bool(true), &s("false")).unwrap(),
            Value::bool(false)
        );
        assert_eq!(
            logic(LogicOp::Or, &Value::bool(false), &Value::bool(true)).unwrap(),
            Value::bool(true)
        );
        assert_eq!(
            logic(LogicOp::And, &Value::int(1), &Value::bool(true))
                .unwrap_err()
                .message,
            "bool required"
        );
        assert_eq!(not(&Value::bool(true)).unwrap(), Value::bool(false));
        assert!(not(&Value::null(Type::Bool)).is_err());
    }

    #[test]
    fn equality() {
        assert_eq!(equals(&Value::int(1), &n("1.0")), Value::bool(true));
        assert_eq!(equals(&Value::int(1), &s("1")), Value::bool(false));
        assert_eq!(
            equals(&Value::null(Type::String), &Value::null(Type::Number)),
            Value::bool(true)
        );
        assert_eq!(
            equals(&Value::null(Type::String), &s("")),
            Value::bool(false)
        );
        assert_eq!(
            equals(&Value::unknown(Type::String), &s("")),
            Value::unknown(Type::Bool)
        );
        assert_eq!(
            equals(&Value::unknown(Type::String), &Value::int(1)),
            Value::bool(false)
        );
        assert_eq!(
            equals(&Value::dynamic_unknown(), &Value::int(1)),
            Value::unknown(Type::Bool)
        );
        let l1 = Value::list(Type::String, vec![s("a"), Value::unknown(Type::String)]);
        let l2 = Value::list(Type::String, vec![s("a"), s("b")]);
        assert_eq!(equals(&l1, &l2), Value::unknown(Type::Bool));
        let l3 = Value::list(Type::String, vec![s("x"), Value::unknown(Type::String)]);
        assert_eq!(equals(&l3, &l2), Value::bool(false));
        assert_eq!(equals(&l2, &l2.clone()), Value::bool(true));
        let t = Value::tuple(vec![s("a"), s("b")]);
        assert_eq!(equals(&t, &l2), Value::bool(false));
        let e = equals(&s("a").mark_sensitive(), &s("a"));
        assert!(e.is_sensitive());
        let deep = Value::list(Type::String, vec![s("a").mark_sensitive()]);
        let e = equals(&deep, &Value::list(Type::String, vec![s("a")]));
        assert_eq!(e.unmarked(), Value::bool(true));
        assert!(e.is_sensitive());
        let mut m = crate::ValueMap::new();
        m.insert("k".to_string(), Value::int(1));
        assert_eq!(
            equals(&Value::object(m.clone()), &Value::object(m)),
            Value::bool(true)
        );
        assert_eq!(
            not_equals(&Value::int(1), &Value::int(2)),
            Value::bool(true)
        );
    }

    #[test]
    fn sets_order_and_dedup() {
        let st = Value::set(
            Type::Number,
            vec![
                Value::int(3),
                n("1.0"),
                Value::int(1),
                Value::unknown(Type::Number),
                Value::null(Type::Number),
                n("-2.5"),
            ],
        );
        let es = st.as_elements().unwrap();
        assert_eq!(es.len(), 5);
        assert_eq!(es[0], n("-2.5"));
        assert_eq!(es[1], Value::int(1));
        assert_eq!(es[2], Value::int(3));
        assert!(es[3].is_unknown());
        assert!(es[4].is_null());
        let ss = Value::set(Type::String, vec![s("b"), s("B"), s("a"), s("b")]);
        assert_eq!(ss.as_elements().unwrap(), &[s("B"), s("a"), s("b")]);
        // Elements carry no marks (cty's sets): a sensitive element makes the set sensitive,
        // and is then the same element as its unmarked copy.
        let marked = Value::set(Type::String, vec![s("a").mark_sensitive(), s("a")]);
        assert_eq!(marked.as_elements().unwrap(), &[s("a")]);
        assert!(marked.is_sensitive());
        let bs = Value::set(
            Type::Bool,
            vec![Value::bool(true), Value::bool(false), Value::bool(true)],
        );
        assert_eq!(
            bs.as_elements().unwrap(),
            &[Value::bool(false), Value::bool(true)]
        );
        let ls = Value::set(
            Type::list(Type::Number),
            vec![
                Value::list(Type::Number, vec![Value::int(1), Value::int(2)]),
                Value::list(Type::Number, vec![Value::int(1)]),
                Value::list(Type::Number, vec![Value::int(1), Value::int(2)]),
            ],
        );
        assert_eq!(ls.as_elements().unwrap().len(), 2);
        assert_eq!(
            ls.as_elements().unwrap()[0],
            Value::list(Type::Number, vec![Value::int(1)])
        );
    }

    #[test]
    fn logic_short_circuit_follows_hcl() {
        use LogicOp::{And, Or};
        let (t, f, u, null) = (
            Value::bool(true),
            Value::bool(false),
            Value::unknown(Type::Bool),
            Value::null(Type::Bool),
        );
        let sc = |op, a: &Value, b: &Value, failed| logic_short_circuit(op, a, b, failed);
        // A known controlling value decides, on either side.
        assert_eq!(sc(And, &f, &u, false), Some((f.clone(), Side::Left)));
        assert_eq!(sc(And, &u, &f, false), Some((f.clone(), Side::Right)));
        assert_eq!(sc(Or, &t, &u, false), Some((t.clone(), Side::Left)));
        assert_eq!(sc(Or, &u, &t, true), Some((t.clone(), Side::Right)));
        // A null is not true: it controls `&&`, never `||`.
        assert_eq!(sc(And, &null, &t, false), Some((f.clone(), Side::Left)));
        assert_eq!(sc(And, &t, &null, false), Some((f.clone(), Side::Right)));
        assert_eq!(sc(Or, &null, &f, false), None);
        assert_eq!(sc(Or, &u, &null, false), Some((u.clone(), Side::Left)));
        // An unknown side decides when the known one does not control.
        assert_eq!(sc(And, &u, &t, false), Some((u.clone(), Side::Left)));
        assert_eq!(sc(And, &t, &u, false), Some((u.clone(), Side::Right)));
        assert_eq!(sc(Or, &f, &u, false), Some((u.clone(), Side::Right)));
        // Both unknown: the left decides unless it failed.
        assert_eq!(sc(And, &u, &u, false), Some((u.clone(), Side::Left)));
        assert_eq!(sc(Or, &u, &u, true), None);
        // Known values that control nothing: the operator runs.
        assert_eq!(sc(And, &t, &t, false), None);
        assert_eq!(sc(Or, &f, &f, false), None);
    }
}

//! Expansion: how many instances a resource or module call has (`count`, `for_each`,
//! OpenTofu's `lifecycle { enabled }`), with Terraform's and OpenTofu's errors for unknown,
//! null, negative, sensitive or wrongly typed values.

use super::*;

impl Walk<'_> {
    pub(super) fn expand(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        count: Option<ExprId>,
        for_each: Option<ExprId>,
        enabled: Option<ExprId>,
    ) -> Option<(Expansion, Vec<(InstanceKey, Option<Value>)>)> {
        expand_in(m, file, count, for_each, enabled, &mut self.out.diags)
    }

    /// [`Walk::expand`], a `count`'s keys given as their number.
    pub(super) fn expand_keys(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        count: Option<ExprId>,
        for_each: Option<ExprId>,
        enabled: Option<ExprId>,
    ) -> Option<(Expansion, Keys)> {
        expand_keys_in(m, file, count, for_each, enabled, &mut self.out.diags)
    }
}

/// The instances of an expansion, each key with its `each.value`: a `count`'s are its
/// indices, held as their number until they are listed (a list of 100 000 keys is 6.4 MB).
pub enum Keys {
    Indices(i64),
    Listed(Vec<(InstanceKey, Option<Value>)>),
}

impl Keys {
    pub fn into_vec(self) -> Vec<(InstanceKey, Option<Value>)> {
        match self {
            Keys::Indices(n) => (0..n).map(|i| (InstanceKey::Int(i), None)).collect(),
            Keys::Listed(keys) => keys,
        }
    }
}

/// The instances `count`, `for_each` or `enabled` (evaluated in `m`) give a resource or module
/// call, each key with its `each.value`; None, with the error in `diags`, when they cannot be
/// known.
pub fn expand_in(
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    count: Option<ExprId>,
    for_each: Option<ExprId>,
    enabled: Option<ExprId>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Expansion, Vec<(InstanceKey, Option<Value>)>)> {
    expand_keys_in(m, file, count, for_each, enabled, diags).map(|(e, keys)| (e, keys.into_vec()))
}

/// [`expand_in`], a `count`'s keys given as their number.
pub fn expand_keys_in(
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    count: Option<ExprId>,
    for_each: Option<ExprId>,
    enabled: Option<ExprId>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Expansion, Keys)> {
    let hir = m.hir(file);
    if let Some(e) = enabled {
        let on = enabled_value(m, file, e, diags)?;
        let keys = if on {
            vec![(InstanceKey::None, None)]
        } else {
            Vec::new()
        };
        return Some((Expansion::Enabled, Keys::Listed(keys)));
    }
    if let Some(c) = count {
        let (v, ds) = m.eval(file, c, &InstanceCtx::default());
        let failed = ds.iter().any(Diagnostic::is_error);
        diags.extend(ds);
        if failed {
            return None;
        }
        let bad = |detail: &str| {
            Diagnostic::error("invalid-count", "Invalid count argument")
                .with_detail(detail.to_string())
                .with_span_opt(hir.span(c))
        };
        if !v.is_wholly_known() {
            diags.push(bad("The \"count\" value depends on resource attributes that cannot be determined until apply, so ferro cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on."));
            return None;
        }
        if v.is_null() {
            diags.push(bad(
                "The given \"count\" argument value is null. An integer is required.",
            ));
            return None;
        }
        // Terraform evaluates `count` as a number: a value that does not convert is its
        // evaluation's error, with the values the expression refers to.
        let n = match convert(&v.unmarked(), &Type::Number) {
            Ok(n) => match n.as_number() {
                Some(n) => n.clone(),
                None => return None,
            },
            Err(err) => {
                let mut d = Diagnostic::error("incorrect-value-type", "Incorrect value type")
                    .with_detail(format!("Invalid expression value: {}.", err.message))
                    .with_span_opt(hir.span(c));
                d.values = m.values(file, c, &InstanceCtx::default());
                diags.push(d);
                return None;
            }
        };
        let Some(n) = n.to_i64().filter(|_| n.is_integer()) else {
            diags.push(bad("The given \"count\" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807."));
            return None;
        };
        if n < 0 {
            diags.push(bad("The given \"count\" argument value is unsuitable: negative numbers are not supported."));
            return None;
        }
        return Some((Expansion::Count, Keys::Indices(n)));
    }
    if let Some(f) = for_each {
        let (v, ds) = m.eval(file, f, &InstanceCtx::default());
        let failed = ds.iter().any(Diagnostic::is_error);
        diags.extend(ds);
        if failed {
            return None;
        }
        // Each error shows the values the expression refers to, as Terraform's do.
        let bad = |detail: String| {
            let mut d = Diagnostic::error("invalid-for-each", "Invalid for_each argument")
                .with_detail(detail)
                .with_span_opt(hir.span(f));
            d.values = m.values(file, f, &InstanceCtx::default());
            d
        };
        if v.is_unknown() || (matches!(v.kind, ValueKind::Set(..)) && !v.is_wholly_known()) {
            diags.push(bad("The \"for_each\" value depends on resource attributes that cannot be determined until apply, so ferro cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the for_each depends on.".into()));
            return None;
        }
        if v.contains_sensitive() && v.as_entries().is_none() || v.is_sensitive() {
            diags.push(bad("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.".into()));
            return None;
        }
        let keys = match &v.kind {
            ValueKind::Null(_) => {
                diags.push(bad("The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.".into()));
                return None;
            }
            ValueKind::Map(_, m) | ValueKind::Object(m) => m
                .iter()
                .map(|(k, x)| (InstanceKey::Str(k.to_string()), Some(x.clone())))
                .collect(),
            ValueKind::Set(_, es) => {
                let mut keys = Vec::new();
                for e in es.iter() {
                    match e.as_str() {
                        Some(s) => keys.push((InstanceKey::Str(s.to_string()), Some(e.clone()))),
                        None => {
                            let mut d = bad(format!("The given \"for_each\" argument value is unsuitable: \"for_each\" supports maps and sets of strings, but you have provided a set containing type {}.", e.ty().friendly_name()));
                            d.summary = "Invalid for_each set argument".into();
                            diags.push(d);
                            return None;
                        }
                    }
                }
                keys
            }
            _ => {
                diags.push(bad(format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", v.ty().friendly_name())));
                return None;
            }
        };
        return Some((Expansion::ForEach, Keys::Listed(keys)));
    }
    Some((
        Expansion::Single,
        Keys::Listed(vec![(InstanceKey::None, None)]),
    ))
}

/// Whether `count` or `for_each` (evaluated in `m`) is not known yet, where [`expand_in`]
/// would report that it cannot be determined until apply: what `-allow-deferral` defers
/// instead. An expression with errors is not (its errors are reported by the expansion).
pub(super) fn expansion_unknown(
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    count: Option<ExprId>,
    for_each: Option<ExprId>,
) -> bool {
    if let Some(c) = count {
        let (v, ds) = m.eval(file, c, &InstanceCtx::default());
        return !ds.iter().any(Diagnostic::is_error) && !v.is_wholly_known();
    }
    if let Some(f) = for_each {
        let (v, ds) = m.eval(file, f, &InstanceCtx::default());
        return !ds.iter().any(Diagnostic::is_error)
            && (v.is_unknown() || (matches!(v.kind, ValueKind::Set(..)) && !v.is_wholly_known()));
    }
    false
}

/// The value of an `enabled` argument, with OpenTofu's errors when it is sensitive, null,
/// unknown while planning, or not a bool.
fn enabled_value(
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    e: ExprId,
    diags: &mut Vec<Diagnostic>,
) -> Option<bool> {
    let hir = m.hir(file);
    let (v, ds) = m.eval(file, e, &InstanceCtx::default());
    let failed = ds.iter().any(Diagnostic::is_error);
    diags.extend(ds);
    if failed {
        return None;
    }
    let bad = |detail: String| {
        let mut d = Diagnostic::error("invalid-enabled", "Invalid enabled argument")
            .with_detail(detail)
            .with_span_opt(hir.span(e));
        d.values = m.values(file, e, &InstanceCtx::default());
        d
    };
    if v.contains_sensitive() {
        diags.push(bad("Sensitive values, or values derived from sensitive values, cannot be used in \"enabled\" arguments. If used, the sensitive value would be exposed by whether an instance is present.".into()));
        return None;
    }
    if v.is_null() {
        diags.push(bad(
            "The given \"enabled\" argument value is unsuitable: the given value is null.".into(),
        ));
        return None;
    }
    if !v.is_wholly_known() {
        diags.push(bad("The given \"enabled\" argument value is derived from a value that won't be known until the apply phase, so ferro cannot determine whether an instance of this object is declared or not.".into()));
        return None;
    }
    match convert(&v, &Type::Bool) {
        Ok(b) => b.as_bool(),
        Err(err) => {
            diags.push(bad(format!(
                "The given \"enabled\" argument value is unsuitable: {}.",
                err.message
            )));
            None
        }
    }
}

/// The instance keys a resource's expansion wants, for telling the instances in state that
/// are no longer wanted. A `count` of n wants 0..n, held as the number alone: a set of the
/// keys cost a resource of 100 000 instances about 2.4 MB until it was finished.
pub(super) enum Wanted {
    Count(usize),
    Keys(BTreeSet<InstanceKey>),
}

impl Wanted {
    pub(super) fn new<T>(keys: &[(InstanceKey, T)]) -> Wanted {
        let counted = keys
            .iter()
            .enumerate()
            .all(|(i, (k, _))| matches!(k, InstanceKey::Int(n) if usize::try_from(*n) == Ok(i)));
        if counted && !keys.is_empty() {
            Wanted::Count(keys.len())
        } else {
            Wanted::Keys(keys.iter().map(|(k, _)| k.clone()).collect())
        }
    }

    pub(super) fn contains(&self, key: &InstanceKey) -> bool {
        match (self, key) {
            (Wanted::Count(n), InstanceKey::Int(i)) => usize::try_from(*i).is_ok_and(|i| i < *n),
            (Wanted::Count(_), _) => false,
            (Wanted::Keys(keys), _) => keys.contains(key),
        }
    }
}

#[cfg(test)]
mod wanted_tests {
    use super::Wanted;
    use ferro_addrs::InstanceKey;

    #[test]
    fn a_count_wants_its_indices_only() {
        let keys: Vec<(InstanceKey, ())> = (0..3).map(|i| (InstanceKey::Int(i), ())).collect();
        let w = Wanted::new(&keys);
        assert!(matches!(w, Wanted::Count(3)));
        assert!(w.contains(&InstanceKey::Int(0)) && w.contains(&InstanceKey::Int(2)));
        assert!(!w.contains(&InstanceKey::Int(3)) && !w.contains(&InstanceKey::Int(-1)));
        assert!(!w.contains(&InstanceKey::None));
        assert!(!w.contains(&InstanceKey::Str("0".into())));
    }

    #[test]
    fn other_keys_are_held_as_a_set() {
        let keys = vec![(InstanceKey::Str("a".into()), ()), (InstanceKey::None, ())];
        let w = Wanted::new(&keys);
        assert!(w.contains(&InstanceKey::Str("a".into())) && w.contains(&InstanceKey::None));
        assert!(!w.contains(&InstanceKey::Int(0)));
        let none: Vec<(InstanceKey, ())> = Vec::new();
        assert!(!Wanted::new(&none).contains(&InstanceKey::Int(0)));
    }
}

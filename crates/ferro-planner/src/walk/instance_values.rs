//! The values of one copy of a resource's instances, gathered while they are planned, from
//! which the resource's value in expressions is made.

use ferro_addrs::InstanceKey;
use ferro_plan::Expansion;
use ferro_value::schema::Schema;
use ferro_value::Value;

/// Instance values with their keys. While every key is its own position (0, 1, 2…, as a
/// `count` plans them), the keys are not held: at 100 000 instances they cost 2.4 MB at the
/// moment the last chunk of a resource is merged, which is when a plan's memory peaks.
#[derive(Default)]
pub(super) struct InstanceValues {
    /// None while each key is its index.
    keys: Option<Vec<InstanceKey>>,
    values: Vec<Value>,
}

impl InstanceValues {
    pub(super) fn capacity(&self) -> usize {
        self.values.capacity()
    }

    pub(super) fn reserve_exact(&mut self, n: usize) {
        self.values.reserve_exact(n);
    }

    pub(super) fn push(&mut self, key: InstanceKey, value: Value) {
        let next = self.values.len();
        match &mut self.keys {
            Some(keys) => keys.push(key),
            None if matches!(key, InstanceKey::Int(i) if usize::try_from(i) == Ok(next)) => {}
            None => {
                let mut keys: Vec<InstanceKey> =
                    (0..next).map(|i| InstanceKey::Int(i as i64)).collect();
                keys.push(key);
                self.keys = Some(keys);
            }
        }
        self.values.push(value);
    }

    /// Puts the values in key order (they are, unless some instances were left alone and
    /// pushed after the others).
    pub(super) fn sort(&mut self) {
        let Some(keys) = &mut self.keys else {
            return;
        };
        if keys.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
        let mut pairs: Vec<(InstanceKey, Value)> = std::mem::take(keys)
            .into_iter()
            .zip(std::mem::take(&mut self.values))
            .collect();
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let (k, v) = pairs.into_iter().unzip();
        *keys = k;
        self.values = v;
    }

    /// The values in order, and their keys unless each is its index.
    pub(super) fn into_parts(self) -> (Option<Vec<InstanceKey>>, Vec<Value>) {
        (self.keys, self.values)
    }

    /// The value the resource has in expressions: its one instance, a tuple (count) or an
    /// object keyed like for_each.
    pub(super) fn into_resource_value(self, expansion: Expansion, schema: &Schema) -> Value {
        let (keys, mut values) = self.into_parts();
        match expansion {
            Expansion::Single | Expansion::Enabled => values
                .pop()
                .unwrap_or_else(|| Value::null(schema.implied_type())),
            Expansion::Count => Value::tuple(values),
            Expansion::ForEach => Value::object(
                keys.unwrap_or_default()
                    .into_iter()
                    .zip(values)
                    .map(|(k, v)| {
                        let name = match k {
                            InstanceKey::Str(s) => s,
                            _ => String::new(),
                        };
                        (name, v)
                    })
                    .collect(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InstanceValues;
    use ferro_addrs::InstanceKey;
    use ferro_value::Value;

    fn n(i: i64) -> Value {
        Value::string(i.to_string())
    }

    #[test]
    fn indices_in_order_hold_no_keys() {
        let mut v = InstanceValues::default();
        for i in 0..3 {
            v.push(InstanceKey::Int(i), n(i));
        }
        v.sort();
        let (keys, values) = v.into_parts();
        assert!(keys.is_none());
        assert_eq!(values, vec![n(0), n(1), n(2)]);
    }

    #[test]
    fn keys_out_of_order_are_kept_and_sorted() {
        let mut v = InstanceValues::default();
        v.push(InstanceKey::Int(0), n(0));
        v.push(InstanceKey::Int(2), n(2));
        v.push(InstanceKey::Int(1), n(1));
        v.sort();
        let (keys, values) = v.into_parts();
        let want: Vec<InstanceKey> = (0..3).map(InstanceKey::Int).collect();
        assert_eq!(keys, Some(want));
        assert_eq!(values, vec![n(0), n(1), n(2)]);
    }

    #[test]
    fn string_keys_are_kept() {
        let mut v = InstanceValues::default();
        v.push(InstanceKey::Str("b".into()), n(2));
        v.push(InstanceKey::Str("a".into()), n(1));
        v.sort();
        let (keys, values) = v.into_parts();
        assert_eq!(
            keys,
            Some(vec![
                InstanceKey::Str("a".into()),
                InstanceKey::Str("b".into())
            ])
        );
        assert_eq!(values, vec![n(1), n(2)]);
    }
}

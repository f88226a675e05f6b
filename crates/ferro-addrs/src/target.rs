//! Addresses as typed on the command line by state commands: a module instance
//! (`module.a["k"]`), a whole resource (`module.a.null_resource.b`) or one instance
//! (`null_resource.b[0]`), with any number of `module.NAME[KEY]` steps in front.

use crate::{
    AbsResource, AbsResourceInstance, InstanceKey, ModuleInstance, ModuleInstanceStep, Resource,
    ResourceMode,
};
use std::fmt;

/// What a command-line address names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Module(ModuleInstance),
    /// A resource given without an instance key: all its instances.
    Resource(AbsResource),
    Instance(AbsResourceInstance),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Module(m) => write!(f, "{m}"),
            Target::Resource(r) => write!(f, "{r}"),
            Target::Instance(i) => write!(f, "{i}"),
        }
    }
}

impl Target {
    /// The module path the address starts with.
    pub fn module(&self) -> &ModuleInstance {
        match self {
            Target::Module(m) => m,
            Target::Resource(r) => &r.module,
            Target::Instance(i) => &i.module,
        }
    }

    /// Whether the resource instance `addr` is named by this address (a module covers its
    /// descendants too).
    pub fn contains(&self, addr: &AbsResourceInstance) -> bool {
        match self {
            Target::Module(m) => module_contains(m, &addr.module),
            Target::Resource(r) => addr.module == r.module && addr.resource.resource == r.resource,
            Target::Instance(i) => i == addr,
        }
    }
}

/// Whether the module instance `m` (a command-line address) contains `other`: every step
/// equal, except that a last step given without a key covers every instance of that call (as
/// Terraform matches `-target=module.a` against `module.a[0]`).
pub fn module_contains(m: &ModuleInstance, other: &ModuleInstance) -> bool {
    if other.0.len() < m.0.len() {
        return false;
    }
    m.0.iter()
        .zip(other.0.iter())
        .enumerate()
        .all(|(i, (ours, theirs))| {
            ours.name == theirs.name
                && (ours.key == theirs.key || (i + 1 == m.0.len() && ours.key.is_none()))
        })
}

struct Scanner<'a> {
    s: &'a str,
    i: usize,
}

impl Scanner<'_> {
    fn ident(&mut self) -> Option<String> {
        let b = self.s.as_bytes();
        let start = self.i;
        while self.i < b.len()
            && (b[self.i].is_ascii_alphanumeric() || b[self.i] == b'_' || b[self.i] == b'-')
        {
            self.i += 1;
        }
        let id = &self.s[start..self.i];
        (!id.is_empty() && !id.as_bytes()[0].is_ascii_digit() && !id.starts_with('-'))
            .then(|| id.to_string())
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.s.as_bytes().get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// An optional `[KEY]`.
    fn key(&mut self) -> Result<InstanceKey, String> {
        if !self.eat(b'[') {
            return Ok(InstanceKey::None);
        }
        let b = self.s.as_bytes();
        let key = if self.eat(b'"') {
            let mut out = String::new();
            loop {
                let Some(c) = self.s[self.i..].chars().next() else {
                    return Err("unterminated string in instance key".into());
                };
                self.i += c.len_utf8();
                match c {
                    '"' => break,
                    '\\' => {
                        let Some(e) = self.s[self.i..].chars().next() else {
                            return Err("unterminated string in instance key".into());
                        };
                        self.i += e.len_utf8();
                        out.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            'r' => '\r',
                            other => other,
                        });
                    }
                    c => out.push(c),
                }
            }
            InstanceKey::Str(out)
        } else {
            let start = self.i;
            self.eat(b'-');
            while self.i < b.len() && b[self.i].is_ascii_digit() {
                self.i += 1;
            }
            let n = self.s[start..self.i].parse::<i64>().map_err(|_| {
                "Index brackets must contain either a literal number or a literal string."
                    .to_string()
            })?;
            InstanceKey::Int(n)
        };
        if !self.eat(b']') {
            return Err(
                "Index brackets must contain either a literal number or a literal string.".into(),
            );
        }
        Ok(key)
    }
}

/// Parse a command-line address naming a module instance, a resource or a resource instance.
pub fn parse_target(s: &str) -> Result<Target, String> {
    let bad = || format!("{s:?} is not a valid resource or module address");
    let mut sc = Scanner { s, i: 0 };
    let mut module = Vec::new();
    loop {
        let save = sc.i;
        let Some(first) = sc.ident() else {
            return Err(bad());
        };
        if first == "module" && sc.eat(b'.') {
            let name = sc.ident().ok_or_else(bad)?;
            let key = sc.key()?;
            module.push(ModuleInstanceStep { name, key });
            if sc.i == s.len() {
                return Ok(Target::Module(ModuleInstance(module.into())));
            }
            if !sc.eat(b'.') {
                return Err(bad());
            }
            continue;
        }
        sc.i = save;
        break;
    }
    let first = sc.ident().ok_or_else(bad)?;
    if !sc.eat(b'.') {
        return Err(bad());
    }
    let resource = if first == "data" {
        let ty = sc.ident().ok_or_else(bad)?;
        if !sc.eat(b'.') {
            return Err(bad());
        }
        let name = sc.ident().ok_or_else(bad)?;
        Resource {
            mode: ResourceMode::Data,
            ty: ty.into(),
            name: name.into(),
        }
    } else {
        Resource::managed(first, sc.ident().ok_or_else(bad)?)
    };
    let has_key = s.as_bytes().get(sc.i) == Some(&b'[');
    let key = sc.key()?;
    if sc.i != s.len() {
        return Err(bad());
    }
    let abs = AbsResource {
        module: ModuleInstance(module.into()),
        resource,
    };
    Ok(if has_key {
        Target::Instance(abs.instance(key))
    } else {
        Target::Resource(abs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_modules_resources_and_instances() {
        for text in [
            "module.a",
            "module.a[\"k\"].module.b[2]",
            "null_resource.x",
            "data.null_data_source.y",
            "module.a[0].null_resource.x[\"q.r\"]",
        ] {
            assert_eq!(parse_target(text).unwrap().to_string(), text);
        }
        assert!(matches!(
            parse_target("module.a.x.y[1]").unwrap(),
            Target::Instance(_)
        ));
        assert!(matches!(
            parse_target("module.a.x.y").unwrap(),
            Target::Resource(_)
        ));
        for bad in [
            "",
            "x",
            "bad[",
            "x.y[",
            "x.y[a]",
            "module.",
            "x.y.z",
            "module.a.b",
        ] {
            assert!(parse_target(bad).is_err(), "{bad}");
        }
    }
}

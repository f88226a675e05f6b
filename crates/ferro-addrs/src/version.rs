//! Provider versions and version constraints as Terraform reads them (`"~> 2.1"`,
//! `">= 1.0, != 1.3.0, < 2.0.0"`): semantic versions with optional pre-release parts, the
//! operators `=`, `!=`, `>`, `>=`, `<`, `<=`, `~>`, and Terraform's rule that a pre-release
//! only matches when a constraint names it exactly.

use std::cmp::Ordering;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// Dot-separated pre-release identifiers (`beta.1`), empty for a release.
    pub prerelease: String,
}

impl Version {
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            prerelease: String::new(),
        }
    }

    /// Parse `2.1.2`, `v2.1.2`, `1.0.0-beta.1` (build metadata `+…` is dropped).
    pub fn parse(s: &str) -> Result<Version, String> {
        let (v, _) = parse_partial(s)?;
        Ok(v)
    }

    pub fn is_prerelease(&self) -> bool {
        !self.prerelease.is_empty()
    }
}

/// Parse a version that may omit minor/patch; returns how many numeric parts were given.
fn parse_partial(s: &str) -> Result<(Version, usize), String> {
    let bad = || format!("invalid version {s:?}");
    let t = s.trim();
    let t = t.strip_prefix('v').unwrap_or(t);
    let t = t.split('+').next().unwrap_or_default();
    let (nums, pre) = match t.split_once('-') {
        Some((n, p)) if !p.is_empty() => (n, p),
        Some(_) => return Err(bad()),
        None => (t, ""),
    };
    let parts: Vec<&str> = nums.split('.').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let mut n = [0u64; 3];
    for (i, p) in parts.iter().enumerate() {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        n[i] = p.parse().map_err(|_| bad())?;
    }
    if !pre.is_empty()
        && !pre
            .split('.')
            .all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    {
        return Err(bad());
    }
    Ok((
        Version {
            major: n[0],
            minor: n[1],
            patch: n[2],
            prerelease: pre.to_string(),
        },
        parts.len(),
    ))
}

impl Ord for Version {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(o.major, o.minor, o.patch))
            .then_with(|| compare_prerelease(&self.prerelease, &o.prerelease))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Semver precedence: a release is newer than its pre-releases; identifiers compare
/// numerically when both are numbers, numbers sort before words, and more identifiers win ties.
fn compare_prerelease(a: &str, b: &str) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        _ => {}
    }
    let (mut ai, mut bi) = (a.split('.'), b.split('.'));
    loop {
        match (ai.next(), bi.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let ord = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(m), Ok(n)) => m.cmp(&n),
                    (Ok(_), Err(_)) => Ordering::Less,
                    (Err(_), Ok(_)) => Ordering::Greater,
                    (Err(_), Err(_)) => x.cmp(y),
                };
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.prerelease.is_empty() {
            write!(f, "-{}", self.prerelease)?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
    /// `~>`: at least this version, and only the rightmost given part may increase.
    Pessimistic,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    pub op: Op,
    pub version: Version,
    /// How many numeric parts were written (matters for `~>`).
    pub precision: usize,
}

impl Constraint {
    pub fn matches(&self, v: &Version) -> bool {
        let c = &self.version;
        match self.op {
            Op::Eq => v == c,
            Op::Ne => v != c,
            Op::Gt => v > c,
            Op::Ge => v >= c,
            Op::Lt => v < c,
            Op::Le => v <= c,
            Op::Pessimistic => {
                if v < c {
                    return false;
                }
                match self.precision {
                    1 => v.major == c.major,
                    2 => v.major == c.major,
                    _ => v.major == c.major && v.minor == c.minor,
                }
            }
        }
    }
}

/// A conjunction of constraints; empty means "any version".
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Constraints(pub Vec<Constraint>);

impl Constraints {
    /// Parse a comma-separated constraint string. A bare version means `=`.
    pub fn parse(s: &str) -> Result<Constraints, String> {
        let mut out = Vec::new();
        if s.trim().is_empty() {
            return Ok(Constraints(out));
        }
        for part in s.split(',') {
            let p = part.trim();
            let (op, rest) = [
                ("~>", Op::Pessimistic),
                (">=", Op::Ge),
                ("<=", Op::Le),
                ("!=", Op::Ne),
                ("=", Op::Eq),
                (">", Op::Gt),
                ("<", Op::Lt),
            ]
            .iter()
            .find_map(|(sym, op)| p.strip_prefix(sym).map(|r| (*op, r)))
            .unwrap_or((Op::Eq, p));
            let rest = rest.trim();
            if rest.starts_with('v') {
                return Err(format!(
                    "invalid version constraint {p:?}: a version must not start with \"v\""
                ));
            }
            let (version, precision) =
                parse_partial(rest).map_err(|_| format!("invalid version constraint {p:?}"))?;
            out.push(Constraint {
                op,
                version,
                precision,
            });
        }
        Ok(Constraints(out))
    }

    /// Does `v` satisfy every constraint? Pre-releases only match when named exactly by `=`.
    pub fn allows(&self, v: &Version) -> bool {
        if v.is_prerelease() && !self.0.iter().any(|c| c.op == Op::Eq && &c.version == v) {
            return false;
        }
        self.0.iter().all(|c| c.matches(v))
    }

    /// Does some release from `lo` to `hi` (both included) satisfy every constraint? The
    /// releases tried are the bounds and each constraint's version with the next two patch
    /// releases after it: where the constraints leave a range open within the bounds, its
    /// least release is one of those.
    pub fn allows_some_in(&self, lo: &Version, hi: &Version) -> bool {
        let patch_after = |v: &Version, n: u64| Version::new(v.major, v.minor, v.patch + n);
        let mut candidates = vec![lo.clone(), hi.clone()];
        for c in &self.0 {
            for n in 0..3 {
                candidates.push(patch_after(&c.version, n));
            }
        }
        candidates
            .iter()
            .any(|v| v >= lo && v <= hi && !v.is_prerelease() && self.allows(v))
    }

    /// Merge another module's constraints for the same provider.
    pub fn merge(&mut self, other: &Constraints) {
        for c in &other.0 {
            if !self.0.contains(c) {
                self.0.push(c.clone());
            }
        }
    }

    /// The newest of `candidates` that satisfies the constraints.
    pub fn newest<'a>(
        &self,
        candidates: impl IntoIterator<Item = &'a Version>,
    ) -> Option<&'a Version> {
        candidates.into_iter().filter(|v| self.allows(v)).max()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Constraints {
    /// Terraform's normalized form (as written to the lock file and shown by `init` and
    /// `providers`): every version with three components (`>= 2.0` is `>= 2.0.0`), except
    /// that `~>` keeps the precision it was given, two components at least (`~> 2` is
    /// `~> 2.0`); a constraint repeated (in that form) is written once.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        for c in &self.0 {
            let v = &c.version;
            let text = if !v.prerelease.is_empty() {
                format!("{}.{}.{}-{}", v.major, v.minor, v.patch, v.prerelease)
            } else if c.op == Op::Pessimistic && c.precision <= 2 {
                format!("{}.{}", v.major, v.minor)
            } else {
                format!("{}.{}.{}", v.major, v.minor, v.patch)
            };
            let part = match c.op {
                Op::Eq => text,
                Op::Ne => format!("!= {text}"),
                Op::Gt => format!("> {text}"),
                Op::Ge => format!(">= {text}"),
                Op::Lt => format!("< {text}"),
                Op::Le => format!("<= {text}"),
                Op::Pessimistic => format!("~> {text}"),
            };
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    fn allows(c: &str, ver: &str) -> bool {
        Constraints::parse(c).unwrap().allows(&v(ver))
    }

    #[test]
    fn a_range_of_releases_satisfies_constraints_any_of_them_meets() {
        let some = |c: &str| {
            Constraints::parse(c)
                .unwrap()
                .allows_some_in(&v("1.0.3"), &v("1.9.8"))
        };
        for ok in [
            ">= 0.12",
            "~> 1.0.0",
            "= 1.0.3",
            ">= 1.3",
            ">= 1.5.7",
            "~> 1.5",
            ">= 1.2, < 1.4",
            "> 1.6.0, != 1.6.1",
            "1.9.8",
            "",
        ] {
            assert!(some(ok), "{ok}");
        }
        for bad in [
            "< 0.1.0",
            ">= 1.10",
            "~> 0.14.0",
            "= 1.0.2",
            "> 1.9.8",
            ">= 2.0",
        ] {
            assert!(!some(bad), "{bad}");
        }
    }

    #[test]
    fn terraform_1_12_and_1_13_constraints_meet_the_followed_range() {
        // The range ferro follows since Terraform 1.13's language (ferro-db's
        // NEWEST_LANGUAGE_VERSION).
        let some = |c: &str| {
            Constraints::parse(c)
                .unwrap()
                .allows_some_in(&v("1.0.3"), &v("1.13.5"))
        };
        for ok in [
            ">= 1.12",
            "~> 1.12",
            "~> 1.13.0",
            ">= 1.12.0, < 1.14.0",
            "1.13.5",
            "> 1.11.4",
        ] {
            assert!(some(ok), "{ok}");
        }
        for bad in [">= 1.13.6", "~> 1.14", "> 1.13.5", "~> 1.13.6", ">= 2.0"] {
            assert!(!some(bad), "{bad}");
        }
    }

    #[test]
    fn parses_and_orders_versions() {
        assert_eq!(v("2.1.2"), Version::new(2, 1, 2));
        assert_eq!(v("v2.1.2"), Version::new(2, 1, 2));
        assert_eq!(v("1.2"), Version::new(1, 2, 0));
        assert!(v("1.10.0") > v("1.9.9"));
        assert!(v("1.0.0-beta.2") < v("1.0.0"));
        assert!(v("1.0.0-beta.2") < v("1.0.0-beta.11"));
        assert!(v("1.0.0-alpha") < v("1.0.0-alpha.1"));
        assert!(v("1.0.0-1") < v("1.0.0-alpha"));
        assert_eq!(v("1.0.0-rc1").to_string(), "1.0.0-rc1");
        for bad in ["", "1.x", "1..2", "a", "1.2.3.4", "1.0-"] {
            assert!(Version::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn operators() {
        assert!(allows("2.1.2", "2.1.2"));
        assert!(!allows("2.1.2", "2.1.3"));
        assert!(allows("= 2.1.2", "2.1.2"));
        assert!(allows("!= 2.1.2", "2.1.3") && !allows("!= 2.1.2", "2.1.2"));
        assert!(allows("> 1.0", "1.0.1") && !allows("> 1.0", "1.0.0"));
        assert!(allows(">= 1.0", "1.0.0") && !allows(">= 1.0", "0.9.9"));
        assert!(allows("< 2", "1.99.0") && !allows("< 2", "2.0.0"));
        assert!(allows("<= 2", "2.0.0") && !allows("<= 2", "2.0.1"));
        assert!(allows(">= 1.0, < 3.0, != 2.0.0", "2.5.0"));
        assert!(!allows(">= 1.0, < 3.0, != 2.0.0", "2.0.0"));
        assert!(allows("", "0.0.1"));
    }

    #[test]
    fn pessimistic_operator_bumps_the_last_given_part() {
        assert!(allows("~> 1.2.3", "1.2.9"));
        assert!(!allows("~> 1.2.3", "1.3.0"));
        assert!(!allows("~> 1.2.3", "1.2.2"));
        assert!(allows("~> 1.2", "1.9.0"));
        assert!(!allows("~> 1.2", "2.0.0"));
        assert!(!allows("~> 1.2", "1.1.0"));
        assert!(allows("~> 1", "1.5.0"));
        assert!(!allows("~> 1", "2.0.0"));
    }

    #[test]
    fn prereleases_only_match_exactly() {
        assert!(!allows(">= 1.0.0", "2.0.0-beta1"));
        assert!(allows("2.0.0-beta1", "2.0.0-beta1"));
        assert!(!allows("~> 2.0", "2.1.0-rc1"));
    }

    #[test]
    fn newest_matching_version_wins() {
        let all: Vec<Version> = ["1.0.0", "2.1.2", "2.2.0", "3.0.0-beta", "1.5.0"]
            .iter()
            .map(|s| v(s))
            .collect();
        let c = Constraints::parse("~> 2.1").unwrap();
        assert_eq!(c.newest(&all), Some(&v("2.2.0")));
        let c = Constraints::parse("< 2.0").unwrap();
        assert_eq!(c.newest(&all), Some(&v("1.5.0")));
        assert_eq!(Constraints::default().newest(&all), Some(&v("2.2.0")));
        assert_eq!(Constraints::parse("> 5").unwrap().newest(&all), None);
    }

    #[test]
    fn invalid_constraints_are_errors() {
        for bad in ["~>", ">= x", "=> 1.0", "1.0,", "v1.0", ">= v1.0"] {
            assert!(Constraints::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn display_normalizes_spacing() {
        assert_eq!(
            Constraints::parse("~>2.1,>=2.1.2").unwrap().to_string(),
            "~> 2.1, >= 2.1.2"
        );
        assert_eq!(Constraints::parse("2.1.2").unwrap().to_string(), "2.1.2");
    }

    /// As Terraform 1.0.3 prints them (`terraform providers`) and requires them in the lock
    /// file: a lock file with any other form is refused by Terraform.
    #[test]
    fn display_is_terraforms_normalized_form() {
        for (given, normalized) in [
            ("~> 2", "~> 2.0"),
            ("~> 2.1", "~> 2.1"),
            ("~> 2.1.0", "~> 2.1.0"),
            ("= 2.1", "2.1.0"),
            ("2.1", "2.1.0"),
            ("!= 2.1", "!= 2.1.0"),
            ("< 3", "< 3.0.0"),
            ("> 2.0.0-beta1", "> 2.0.0-beta1"),
            (">= 2.1, ~> 2.1, >= 2.1", ">= 2.1.0, ~> 2.1"),
            ("<= 3.1", "<= 3.1.0"),
        ] {
            assert_eq!(
                Constraints::parse(given).unwrap().to_string(),
                normalized,
                "{given}"
            );
        }
        let mut merged = Constraints::parse(">= 2.0").unwrap();
        merged.merge(&Constraints::parse("~> 2.1").unwrap());
        merged.merge(&Constraints::parse(">= 2.0.0").unwrap());
        assert_eq!(merged.to_string(), ">= 2.0.0, ~> 2.1");
    }
}

//! `-target` and `-exclude`: which resource instances and root outputs a plan covers.
//!
//! As Terraform decides it: a target covers the objects it names (a module covers everything
//! inside it) and, in a normal plan, every resource they depend on, whole; in a destroy plan,
//! every resource that depends on them instead. A root output is kept only when every resource
//! it depends on is covered (and it depends on at least one). `-exclude` (OpenTofu's) is the
//! opposite: the objects it names are left alone, and so is everything that depends on them (in
//! a destroy plan: everything they depend on).

use ferro_addrs::{module_contains, AbsResourceInstance, ConfigResource, Target};
use std::collections::{BTreeSet, HashMap, HashSet};

#[derive(Debug, Default)]
pub(crate) struct Targeting {
    targets: Vec<Target>,
    excludes: Vec<Target>,
    /// Static resources some target names or contains.
    named: HashSet<ConfigResource>,
    /// Static resources covered whole because a named one needs them (normal plan) or they
    /// need a named one (destroy plan).
    related: HashSet<ConfigResource>,
    /// Static resources left alone because they depend on an excluded one.
    excluded_related: HashSet<ConfigResource>,
}

/// Whether a target could name something of the static resource `cr` (some instance of it).
fn names_static(t: &Target, cr: &ConfigResource) -> bool {
    let steps = &t.module().0;
    let names_module = |exact: bool| {
        let prefix = steps.len() <= cr.module.len()
            && steps.iter().zip(&cr.module).all(|(s, m)| &s.name == m);
        prefix && (!exact || steps.len() == cr.module.len())
    };
    match t {
        Target::Module(_) => names_module(false),
        Target::Resource(r) => names_module(true) && r.resource == cr.resource,
        Target::Instance(i) => names_module(true) && i.resource.resource == cr.resource,
    }
}

/// Whether `t` names the instance `addr` (a module target covers its descendants; a module
/// step given without a key, last in the path, covers every instance of that call).
fn names_instance(t: &Target, addr: &AbsResourceInstance) -> bool {
    match t {
        Target::Module(m) => module_contains(m, &addr.module),
        Target::Resource(r) => addr.module == r.module && addr.resource.resource == r.resource,
        Target::Instance(i) => i == addr,
    }
}

/// Every resource reachable from `start` along `edges` (not including `start` itself unless
/// it is reachable).
fn reachable(
    start: &HashSet<ConfigResource>,
    edges: &HashMap<ConfigResource, BTreeSet<ConfigResource>>,
) -> HashSet<ConfigResource> {
    let mut seen = HashSet::new();
    let mut stack: Vec<&ConfigResource> = start.iter().collect();
    while let Some(r) = stack.pop() {
        if let Some(ds) = edges.get(r) {
            for d in ds {
                if seen.insert(d.clone()) {
                    stack.push(d);
                }
            }
        }
    }
    seen
}

fn reversed(
    edges: &HashMap<ConfigResource, BTreeSet<ConfigResource>>,
) -> HashMap<ConfigResource, BTreeSet<ConfigResource>> {
    let mut out: HashMap<ConfigResource, BTreeSet<ConfigResource>> = HashMap::new();
    for (r, ds) in edges {
        for d in ds {
            out.entry(d.clone()).or_default().insert(r.clone());
        }
    }
    out
}

impl Targeting {
    /// `deps`: every static resource (of configuration and state) with the resources it
    /// depends on directly.
    pub(crate) fn new(
        targets: Vec<Target>,
        excludes: Vec<Target>,
        destroy: bool,
        deps: &HashMap<ConfigResource, BTreeSet<ConfigResource>>,
    ) -> Targeting {
        let all: Vec<&ConfigResource> = deps
            .iter()
            .flat_map(|(r, ds)| std::iter::once(r).chain(ds.iter()))
            .collect();
        let named: HashSet<ConfigResource> = all
            .iter()
            .filter(|cr| targets.iter().any(|t| names_static(t, cr)))
            .map(|cr| (*cr).clone())
            .collect();
        let dependents = reversed(deps);
        let (towards_targets, away_from_excludes) = if destroy {
            (&dependents, deps)
        } else {
            (deps, &dependents)
        };
        let related = reachable(&named, towards_targets);
        let excluded_named: HashSet<ConfigResource> = all
            .iter()
            .filter(|cr| excludes.iter().any(|t| names_static(t, cr)))
            .map(|cr| (*cr).clone())
            .collect();
        let excluded_related = reachable(&excluded_named, away_from_excludes);
        Targeting {
            targets,
            excludes,
            named,
            related,
            excluded_related,
        }
    }

    pub(crate) fn is_active(&self) -> bool {
        !self.targets.is_empty() || !self.excludes.is_empty()
    }

    /// Whether the plan covers the resource instance `addr`.
    pub(crate) fn includes(&self, addr: &AbsResourceInstance) -> bool {
        if !self.is_active() {
            return true;
        }
        let cr = addr.containing_resource().config();
        if self.excludes.iter().any(|t| names_instance(t, addr))
            || (self.excluded_related.contains(&cr)
                && !self.excludes.iter().any(|t| names_static(t, &cr)))
        {
            return false;
        }
        if self.targets.is_empty() {
            return true;
        }
        self.targets.iter().any(|t| names_instance(t, addr))
            || (self.related.contains(&cr) && !self.named.contains(&cr))
    }

    /// Whether the plan covers `addr` because a target names it (or a module it is in), not
    /// only as a dependency or dependent of one. A destroy removes data resources only so:
    /// Terraform 1.0.3 keeps a data resource that reads a targeted resource it destroys.
    pub(crate) fn includes_named(&self, addr: &AbsResourceInstance) -> bool {
        self.includes(addr)
            && (self.targets.is_empty() || self.targets.iter().any(|t| names_instance(t, addr)))
    }

    /// Whether a root output depending on the resources `deps` is planned.
    pub(crate) fn includes_output(&self, deps: Option<&BTreeSet<ConfigResource>>) -> bool {
        if !self.is_active() {
            return true;
        }
        let deps = deps.cloned().unwrap_or_default();
        if deps
            .iter()
            .any(|d| self.excluded_related.contains(d) || self.excluded_names(d))
        {
            return false;
        }
        if self.targets.is_empty() {
            return true;
        }
        !deps.is_empty()
            && deps
                .iter()
                .all(|d| self.named.contains(d) || self.related.contains(d))
    }

    fn excluded_names(&self, cr: &ConfigResource) -> bool {
        self.excludes.iter().any(|t| names_static(t, cr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_addrs::{parse_resource_instance, parse_target, Resource};

    fn cr(s: &str) -> ConfigResource {
        parse_resource_instance(s)
            .unwrap()
            .containing_resource()
            .config()
    }

    fn deps() -> HashMap<ConfigResource, BTreeSet<ConfigResource>> {
        // b -> a, c -> b, d alone
        let mut m = HashMap::new();
        m.insert(cr("null_resource.a"), BTreeSet::new());
        m.insert(cr("null_resource.b"), [cr("null_resource.a")].into());
        m.insert(cr("null_resource.c"), [cr("null_resource.b")].into());
        m.insert(cr("null_resource.d"), BTreeSet::new());
        m
    }

    fn inst(s: &str) -> AbsResourceInstance {
        parse_resource_instance(s).unwrap()
    }

    #[test]
    fn target_covers_dependencies_in_a_normal_plan() {
        let t = Targeting::new(
            vec![parse_target("null_resource.b").unwrap()],
            vec![],
            false,
            &deps(),
        );
        assert!(t.includes(&inst("null_resource.a")));
        assert!(t.includes(&inst("null_resource.b")));
        assert!(!t.includes(&inst("null_resource.c")));
        assert!(!t.includes(&inst("null_resource.d")));
    }

    #[test]
    fn target_covers_dependents_in_a_destroy_plan() {
        let t = Targeting::new(
            vec![parse_target("null_resource.b").unwrap()],
            vec![],
            true,
            &deps(),
        );
        assert!(!t.includes(&inst("null_resource.a")));
        assert!(t.includes(&inst("null_resource.b")));
        assert!(t.includes(&inst("null_resource.c")));
    }

    #[test]
    fn instance_target_covers_only_that_instance() {
        let t = Targeting::new(
            vec![parse_target("null_resource.a[1]").unwrap()],
            vec![],
            false,
            &deps(),
        );
        assert!(t.includes(&inst("null_resource.a[1]")));
        assert!(!t.includes(&inst("null_resource.a[0]")));
    }

    #[test]
    fn module_target_without_key_covers_every_instance() {
        let mut d = deps();
        let inner = ConfigResource {
            module: vec!["m".into()],
            resource: Resource::managed("null_resource", "x"),
        };
        d.insert(inner, BTreeSet::new());
        let t = Targeting::new(vec![parse_target("module.m").unwrap()], vec![], false, &d);
        assert!(t.includes(&inst("module.m[0].null_resource.x")));
        assert!(t.includes(&inst("module.m[\"k\"].null_resource.x")));
        assert!(!t.includes(&inst("null_resource.a")));
    }

    #[test]
    fn only_a_target_itself_names_an_instance() {
        let t = Targeting::new(
            vec![parse_target("null_resource.a").unwrap()],
            vec![],
            true,
            &deps(),
        );
        assert!(t.includes_named(&inst("null_resource.a")));
        assert!(t.includes(&inst("null_resource.b")));
        assert!(!t.includes_named(&inst("null_resource.b")));
        let none = Targeting::new(vec![], vec![], true, &deps());
        assert!(none.includes_named(&inst("null_resource.b")));
    }

    #[test]
    fn exclude_leaves_dependents_alone() {
        let t = Targeting::new(
            vec![],
            vec![parse_target("null_resource.b").unwrap()],
            false,
            &deps(),
        );
        assert!(t.includes(&inst("null_resource.a")));
        assert!(!t.includes(&inst("null_resource.b")));
        assert!(!t.includes(&inst("null_resource.c")));
        assert!(t.includes(&inst("null_resource.d")));
    }

    #[test]
    fn outputs_kept_only_when_all_their_resources_are_covered() {
        let t = Targeting::new(
            vec![parse_target("null_resource.b").unwrap()],
            vec![],
            false,
            &deps(),
        );
        let on_b: BTreeSet<_> = [cr("null_resource.b")].into();
        let on_c: BTreeSet<_> = [cr("null_resource.c")].into();
        assert!(t.includes_output(Some(&on_b)));
        assert!(!t.includes_output(Some(&on_c)));
        assert!(!t.includes_output(None));
    }
}

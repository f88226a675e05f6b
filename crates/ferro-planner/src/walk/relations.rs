//! Relations between static resources decided before the walk: what each depends on (state's
//! record for resources the configuration no longer has), which resources a lifecycle setting
//! applies to, and where `create_before_destroy` propagates.

use super::*;
use crate::resource_sets::union;

/// The configured resources whose `lifecycle` satisfies `pred`.
pub(super) fn lifecycle_set(
    tree: &EvalTree<'_>,
    db: &dyn Db,
    graph: &ferro_db::ItemGraph,
    pred: impl Fn(&ferro_hir::Lifecycle) -> bool,
) -> HashSet<ConfigResource> {
    let mut out = HashSet::new();
    for item in &graph.order {
        let ItemId::Resource(r) = &item.id else {
            continue;
        };
        let st = &tree.statics[item.node];
        let Some(ri) = st.index.resources.get(r) else {
            continue;
        };
        if pred(&file_hir(db, ri.file).resources[ri.index].lifecycle) {
            out.insert(ConfigResource {
                module: st.path.clone(),
                resource: r.clone(),
            });
        }
    }
    out
}

/// Every resource that a `create_before_destroy` resource depends on, directly or not.
pub(super) fn forced_create_before_destroy(
    tree: &EvalTree<'_>,
    db: &dyn Db,
    graph: &ferro_db::ItemGraph,
) -> HashSet<ConfigResource> {
    let mut start: Vec<ConfigResource> =
        lifecycle_set(tree, db, graph, |lc| lc.create_before_destroy)
            .into_iter()
            .collect();
    let mut out = HashSet::new();
    while let Some(r) = start.pop() {
        for d in graph.resource_deps.get(&r).into_iter().flatten() {
            if out.insert(d.clone()) {
                start.push(d.clone());
            }
        }
    }
    out
}

/// Every static resource of the configuration and of state with the resources it depends on
/// (state's recorded dependencies for those the configuration no longer has).
pub(super) fn static_dependencies(
    config: &HashMap<ConfigResource, BTreeSet<ConfigResource>>,
    state: &State,
) -> HashMap<ConfigResource, BTreeSet<ConfigResource>> {
    let mut out = config.clone();
    for rs in state.resources.values() {
        let cr = rs.addr.config();
        if out.contains_key(&cr) {
            continue;
        }
        let mut ds = BTreeSet::new();
        for inst in rs.instances.values() {
            for obj in inst
                .current
                .as_deref()
                .into_iter()
                .chain(inst.deposed.values())
            {
                for d in obj.dependencies.iter() {
                    if let Ok(a) = ferro_addrs::parse_resource_instance(d) {
                        ds.insert(a.containing_resource().config());
                    }
                }
            }
        }
        out.insert(cr, ds);
    }
    out
}

impl Walk<'_> {
    /// Record what the resource `cr`, reached by the walk, depends on transitively, and what
    /// its objects record as `dependencies`: what it refers to (`direct`) and, through each of
    /// those that changes in this plan, what that one records.
    pub(super) fn note_dependencies(
        &mut self,
        cr: &ConfigResource,
        direct: Option<&BTreeSet<ConfigResource>>,
    ) {
        let Some(id) = self.rel.transitive.ids().id(cr) else {
            return;
        };
        let ids = self.rel.transitive.ids();
        let direct = direct.map(|ds| ids.ids(ds)).unwrap_or_default();
        let mut all = direct.clone();
        for &d in &direct {
            if let Some(t) = self.rel.transitive.members(d) {
                all = union(&all, t);
            }
        }
        let mut recorded = direct.clone();
        for &d in &direct {
            if self.rel.changing.contains(ids.resource(d)) {
                if let Some(t) = self.rel.recorded.members(d) {
                    recorded = union(&recorded, t);
                }
            }
        }
        // Ephemeral resources order apply's steps (through them, what they depend on) but are
        // never recorded in state: nothing of them is there for a later destroy to order.
        recorded.retain(|&d| ids.resource(d).resource.mode != ResourceMode::Ephemeral);
        self.rel.transitive.set(id, all);
        self.rel.recorded.set(id, recorded);
    }
}

//! Resource values the walk gives back once nothing left to plan reads them.
//!
//! A module's expressions read a resource's instances while the items that hold those
//! expressions are planned: its outputs, locals, the resources and module calls that refer to
//! it, the input variables of the modules it calls, provider blocks. Each of those caches what
//! it evaluated (the walk caches partial values too), so once the last of them in the item
//! graph's order is planned, the resource's value in every instance of its module is read by
//! nothing again. In a tree of modules whose outputs collect their resources' ids, that value
//! was a projected object per instance, held to the end of the walk beside the outputs built
//! from it.
//!
//! Readers the item graph does not order are kept: a module with `check` blocks (evaluated after
//! the walk) keeps every resource value, and so does a resource any of whose readers is not an
//! item of the order.

use super::*;
use ferro_db::{item_references, Item, RefTarget, Referrer, TreeNodeId};

/// The resources whose values the walk released in one module instance, recorded in debug
/// builds only: reading one again is a bug of the order analysis, and the golden suite runs
/// debug builds. Release builds keep nothing.
#[derive(Default)]
pub(crate) struct Released {
    #[cfg(debug_assertions)]
    names: std::sync::Mutex<HashSet<Resource>>,
}

impl Released {
    pub(crate) fn insert(&self, _r: &Resource) {
        #[cfg(debug_assertions)]
        self.names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(_r.clone());
    }

    /// Panics (debug builds) when `r` was released.
    pub(crate) fn check(&self, _r: &Resource, _path: &ModuleInstance) {
        #[cfg(debug_assertions)]
        assert!(
            !self
                .names
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(_r),
            "{_r} in {_path} was read after the walk released its value"
        );
    }
}

/// Resource instances released at once from which the freed pages are given back to the system
/// (it costs a system call or a few; below this, what is freed is little).
const GIVE_BACK_FROM: usize = 4096;

/// The resources to release after each position of the item graph's order.
pub(super) struct Releases(HashMap<usize, Vec<(TreeNodeId, Resource)>>);

impl Releases {
    pub(super) fn new(db: &dyn Db, ws: Workspace, order: &[Item], tree: &EvalTree<'_>) -> Self {
        let position: HashMap<&Item, usize> =
            order.iter().enumerate().map(|(i, it)| (it, i)).collect();
        // The last reader's position, or None when a reader is not in the order.
        let mut last: HashMap<(TreeNodeId, &Resource), Option<usize>> = HashMap::new();
        for (who, target) in &item_references(db, ws).refs {
            let RefTarget::Item(Item {
                node,
                id: ItemId::Resource(r),
            }) = target
            else {
                continue;
            };
            let at = match who {
                Referrer::Item(it) => position.get(it).copied(),
                Referrer::Provider { node, name, alias } => position
                    .get(&Item {
                        node: *node,
                        id: ItemId::Provider {
                            name: name.clone(),
                            alias: alias.clone(),
                        },
                    })
                    .copied(),
            };
            let slot = last.entry((*node, r)).or_insert(Some(0));
            *slot = slot.zip(at).map(|(a, b)| a.max(b));
        }
        let mut by_position: HashMap<usize, Vec<(TreeNodeId, Resource)>> = HashMap::new();
        for ((node, r), at) in last {
            let Some(at) = at else { continue };
            if tree
                .statics
                .get(node)
                .is_none_or(|st| !st.index.checks.is_empty())
            {
                continue;
            }
            by_position.entry(at).or_default().push((node, r.clone()));
        }
        Releases(by_position)
    }

    /// Give back the values of the resources whose last reader is at `position`, in every
    /// instance of their module.
    pub(super) fn after(&self, position: usize, tree: &EvalTree<'_>) {
        let Some(resources) = self.0.get(&position) else {
            return;
        };
        let mut instances = 0;
        for (node, r) in resources {
            for path in tree.instances_of(*node) {
                if let Some(m) = tree.scope(&path) {
                    instances += m.release_resource(r);
                }
            }
        }
        if instances >= GIVE_BACK_FROM {
            crate::memory::give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_db::{RootDb, SchemaTable, SourceFile};
    use ferro_diag::FileId;

    /// (the item after which it is released, the resource), for a root module of `text`.
    fn releases_of(text: &str) -> Vec<(String, String)> {
        let db = RootDb::default();
        let f = SourceFile::new(&db, "main.tf".into(), text.into(), FileId(0));
        let ws = Workspace::single(&db, vec![f], Arc::new(SchemaTable::default()));
        let graph = item_graph(&db, ws).as_ref().expect("no cycle");
        let tree = EvalTree::new(&db, ws, BTreeMap::new(), true, String::new());
        let releases = Releases::new(&db, ws, &graph.order, &tree);
        let mut out: Vec<(String, String)> = releases
            .0
            .iter()
            .flat_map(|(at, rs)| {
                let after = graph.order[*at].id.to_string();
                rs.iter().map(move |(_, r)| (after.clone(), r.to_string()))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_resource_is_released_after_its_last_reader() {
        let r = releases_of(
            r#"
resource "null_resource" "a" {}
resource "null_resource" "b" {
  triggers = { x = local.l }
}
resource "null_resource" "unread" {}
locals {
  l = null_resource.a.id
}
output "o" {
  value = [null_resource.b.id, local.l]
}
output "p" {
  value = null_resource.b.triggers
}
"#,
        );
        // b has two readers: it goes after whichever the order plans last.
        let b_after = r
            .iter()
            .find(|(_, res)| res == "null_resource.b")
            .map(|(after, _)| after.as_str());
        assert!(matches!(b_after, Some("output.o" | "output.p")), "{r:?}");
        assert!(
            r.contains(&("local.l".into(), "null_resource.a".into())),
            "{r:?}"
        );
        // Nothing reads it, so the walk keeps no value of it to release.
        assert_eq!(r.len(), 2, "{r:?}");
    }

    #[test]
    fn a_module_with_check_blocks_keeps_its_resource_values() {
        // Check blocks are evaluated after the walk, outside the item graph's order.
        let r = releases_of(
            r#"
resource "null_resource" "a" {}
output "o" {
  value = null_resource.a.id
}
check "a" {
  assert {
    condition     = null_resource.a.id != ""
    error_message = "empty"
  }
}
"#,
        );
        assert!(r.is_empty(), "{r:?}");
    }
}

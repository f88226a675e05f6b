//! Values the walk gives back once nothing left to plan reads them.
//!
//! A module's expressions read a resource's instances, and the outputs of the modules it
//! calls (`module.NAME`), while the items that hold those expressions are planned: its
//! outputs, locals, the resources and module calls that refer to them, the input variables of
//! the modules it calls, provider blocks. Each of those caches what it evaluated (the walk
//! caches partial values too), so once the last of them in the item graph's order is planned
//! in a module instance, the resource's value there, or the called instances' outputs, are
//! read by nothing again. In a tree of modules whose outputs collect their resources' ids,
//! those were a projected object per instance and each level's list of the ids, all held to
//! the end of the walk beside the root's outputs built from them.
//!
//! Readers the item graph does not order are kept: a module with `check` blocks (evaluated after
//! the walk) keeps every value it reads, and so does a resource or call any of whose readers is
//! not an item of the order.

use super::*;
use ferro_db::{item_references, Item, RefTarget, Referrer, TreeNodeId};

/// Resource instances released at once from which the freed pages are given back to the system
/// (it costs a system call or a few; below this, what is freed is little).
pub(super) const GIVE_BACK_FROM: usize = 4096;

/// What a module instance holds for its readers: a resource's value, or the outputs of a module
/// call's instances (`module.NAME`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Held {
    Resource(Resource),
    Call(String),
}

impl Held {
    /// Give it back in the module instance `m`; returns the elements released.
    fn release(&self, m: &ModuleEval<'_>) -> usize {
        match self {
            Held::Resource(r) => m.release_resource(r),
            Held::Call(call) => m.release_call_outputs(call),
        }
    }
}

impl std::fmt::Display for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Held::Resource(r) => write!(f, "{r}"),
            Held::Call(call) => write!(f, "module.{call}"),
        }
    }
}

/// What to release after each position of the item graph's order.
pub(super) struct Releases(HashMap<usize, Vec<(TreeNodeId, Held)>>);

impl Releases {
    pub(super) fn new(db: &dyn Db, ws: Workspace, order: &[Item], tree: &EvalTree<'_>) -> Self {
        let position: HashMap<&Item, usize> =
            order.iter().enumerate().map(|(i, it)| (it, i)).collect();
        // The last reader's position, or None when a reader is not in the order.
        let mut last: HashMap<(TreeNodeId, Held), Option<usize>> = HashMap::new();
        for (who, target) in &item_references(db, ws).refs {
            let held = match target {
                RefTarget::Item(Item {
                    node,
                    id: ItemId::Resource(r),
                }) => (*node, Held::Resource(r.clone())),
                RefTarget::Module { node, call, .. } => (*node, Held::Call(call.clone())),
                _ => continue,
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
            let slot = last.entry(held).or_insert(Some(0));
            *slot = slot.zip(at).map(|(a, b)| a.max(b));
        }
        let mut by_position: HashMap<usize, Vec<(TreeNodeId, Held)>> = HashMap::new();
        for ((node, held), at) in last {
            // A call's outputs go no sooner than the last of them is planned: a reader that
            // takes one output is ordered after that output only.
            let at = match &held {
                Held::Call(call) => tree
                    .statics
                    .get(node)
                    .and_then(|st| st.children.get(call))
                    .and_then(|child| {
                        let outputs = tree.statics.get(*child)?.index.outputs.keys();
                        outputs.into_iter().try_fold(at?, |a, name| {
                            let item = Item {
                                node: *child,
                                id: ItemId::Output(name.clone()),
                            };
                            position.get(&item).map(|&p| a.max(p))
                        })
                    }),
                Held::Resource(_) => at,
            };
            let Some(at) = at else { continue };
            if tree
                .statics
                .get(node)
                .is_none_or(|st| !st.index.checks.is_empty())
            {
                continue;
            }
            by_position.entry(at).or_default().push((node, held));
        }
        Releases(by_position)
    }

    /// Release, in the module instance `m` alone, what the item at `position` read last, once
    /// that item is planned there; returns the elements released. A module's expressions read
    /// only its own resources and its own calls' outputs, so another instance's item has no
    /// use for them: the walk releases them instance by instance while it plans an item across
    /// a module's instances, and what the item builds (a module's output) takes the place of
    /// what it read instead of coming beside it.
    pub(super) fn in_instance(&self, position: usize, m: &ModuleEval<'_>) -> usize {
        let Some(held) = self.0.get(&position) else {
            return 0;
        };
        held.iter()
            .filter(|(node, _)| *node == m.node())
            .map(|(_, h)| h.release(m))
            .sum()
    }

    /// Release what the item at `position` read last in every instance of its module (what
    /// [`Releases::in_instance`] released already holds nothing).
    pub(super) fn after(&self, position: usize, tree: &EvalTree<'_>) {
        let Some(held) = self.0.get(&position) else {
            return;
        };
        let mut released = 0;
        for (node, h) in held {
            for path in tree.instances_of(*node) {
                if let Some(m) = tree.scope(&path) {
                    released += h.release(&m);
                }
            }
        }
        if released >= GIVE_BACK_FROM {
            crate::memory::give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_db::{RootDb, SchemaTable, Setter, SourceFile};
    use ferro_diag::FileId;

    /// (the item after which it is released, what is released), for a root module of `text`.
    fn releases_of(text: &str) -> Vec<(String, String)> {
        releases_in_tree(text, &[])
    }

    /// [`releases_of`] for a root module of `text` and child modules (directory, text).
    fn releases_in_tree(text: &str, children: &[(&str, &str)]) -> Vec<(String, String)> {
        let db = RootDb::default();
        let f = SourceFile::new(&db, "main.tf".into(), text.into(), FileId(0));
        let modules: Vec<ferro_db::Module> = (children.iter().enumerate())
            .map(|(i, (dir, text))| {
                let name = format!("{dir}/main.tf");
                let f = SourceFile::new(&db, name, text.to_string(), FileId(i as u32 + 1));
                ferro_db::Module::new(&db, dir.to_string(), vec![f])
            })
            .collect();
        let ws = Workspace::single(&db, vec![f], Arc::new(SchemaTable::default()));
        let mut db = db;
        ws.set_children(&mut db).to(modules);
        let graph = item_graph(&db, ws).as_ref().expect("no cycle");
        let tree = EvalTree::new(&db, ws, BTreeMap::new(), true, String::new());
        let releases = Releases::new(&db, ws, &graph.order, &tree);
        let mut out: Vec<(String, String)> = releases
            .0
            .iter()
            .flat_map(|(at, rs)| {
                let after = graph.order[*at].id.to_string();
                rs.iter().map(move |(_, h)| (after.clone(), h.to_string()))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_calls_outputs_are_released_after_the_last_reader_of_the_call() {
        let r = releases_in_tree(
            r#"
module "leaf" {
  source = "./modules/leaf"
  count  = 2
}
locals {
  first = module.leaf[0].ids
}
output "all" {
  value = [module.leaf[*].ids, local.first]
}
"#,
            &[(
                "modules/leaf",
                r#"
resource "null_resource" "r" {
  count = 3
}
output "ids" {
  value = null_resource.r[*].id
}
"#,
            )],
        );
        assert_eq!(
            r,
            vec![
                ("output.all".to_string(), "module.leaf".to_string()),
                ("output.ids".to_string(), "null_resource.r".to_string()),
            ]
        );
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

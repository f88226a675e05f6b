//! Sets of the configuration's resources held as numbers.
//!
//! The walk keeps, for every resource, the resources it depends on transitively and those
//! its objects record as `dependencies` (Terraform records every transitive dependency). In a
//! long chain of resources these sets hold the square of the chain's length; as sets of
//! addresses (a module path and a resource name each, in a B-tree) a chain of 3 000 resources
//! held 680 MB of them. Here each resource is a number, the numbers follow address order, and
//! a set is a sorted slice of them: 4 bytes a member, read in the order a set of addresses
//! gives.

use ferro_addrs::ConfigResource;
use std::collections::HashMap;
use std::sync::Arc;

/// The resources sets can hold, numbered in address order.
#[derive(Debug, Default)]
pub struct ResourceIds {
    list: Vec<ConfigResource>,
    ids: HashMap<ConfigResource, u32>,
}

impl ResourceIds {
    pub fn new(resources: impl IntoIterator<Item = ConfigResource>) -> ResourceIds {
        let mut list: Vec<ConfigResource> = resources.into_iter().collect();
        list.sort();
        list.dedup();
        let ids = list
            .iter()
            .enumerate()
            .map(|(i, r)| (r.clone(), i as u32))
            .collect();
        ResourceIds { list, ids }
    }

    pub fn id(&self, r: &ConfigResource) -> Option<u32> {
        self.ids.get(r).copied()
    }

    /// How many resources there are (their numbers are below this).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn resource(&self, id: u32) -> &ConfigResource {
        &self.list[id as usize]
    }

    /// The numbers of the resources of `set` this table has, sorted.
    pub fn ids<'a>(&self, set: impl IntoIterator<Item = &'a ConfigResource>) -> Vec<u32> {
        let mut out: Vec<u32> = set.into_iter().filter_map(|r| self.id(r)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A set of resources for each resource of a [`ResourceIds`], given as the walk reaches it.
#[derive(Debug, Default)]
pub struct ResourceSets {
    ids: Arc<ResourceIds>,
    sets: Vec<Option<Box<[u32]>>>,
}

impl ResourceSets {
    pub fn new(ids: Arc<ResourceIds>) -> ResourceSets {
        let sets = vec![None; ids.list.len()];
        ResourceSets { ids, sets }
    }

    pub fn ids(&self) -> &ResourceIds {
        &self.ids
    }

    /// Set `r`'s set (members sorted, as [`ResourceIds::ids`] and [`union`] give them).
    pub fn set(&mut self, r: u32, members: Vec<u32>) {
        self.sets[r as usize] = Some(members.into_boxed_slice());
    }

    /// `r`'s set, by number, when it was given.
    pub fn members(&self, r: u32) -> Option<&[u32]> {
        self.sets.get(r as usize)?.as_deref()
    }

    /// `r`'s set, when it was given, in address order.
    pub fn get(&self, r: &ConfigResource) -> Option<impl Iterator<Item = &ConfigResource>> {
        let members = self.members(self.ids.id(r)?)?;
        Some(members.iter().map(|&m| self.ids.resource(m)))
    }

    /// Every resource whose set was given, with its set in address order.
    pub fn iter(
        &self,
    ) -> impl Iterator<Item = (&ConfigResource, impl Iterator<Item = &ConfigResource>)> {
        self.sets.iter().enumerate().filter_map(|(i, s)| {
            let members = s.as_deref()?;
            Some((
                self.ids.resource(i as u32),
                members.iter().map(|&m| self.ids.resource(m)),
            ))
        })
    }
}

/// The union of two sorted sets of numbers, sorted.
pub fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_addrs::Resource;

    fn cr(module: &[&str], name: &str) -> ConfigResource {
        ConfigResource {
            module: module.iter().map(|s| s.to_string()).collect(),
            resource: Resource::managed("null_resource", name),
        }
    }

    #[test]
    fn sets_read_in_address_order() {
        let (a, b, m) = (cr(&[], "a"), cr(&[], "b"), cr(&["m"], "a"));
        let ids = Arc::new(ResourceIds::new([m.clone(), b.clone(), a.clone()]));
        let mut sets = ResourceSets::new(ids.clone());
        let members = ids.ids([&m, &a]);
        let bi = ids.id(&b).unwrap();
        sets.set(bi, members);
        let got: Vec<&ConfigResource> = sets.get(&b).unwrap().collect();
        let mut want = vec![&m, &a];
        want.sort();
        assert_eq!(got, want);
        assert!(sets.get(&a).is_none());
        assert_eq!(sets.iter().count(), 1);
    }

    #[test]
    fn union_merges_sorted_sets() {
        assert_eq!(union(&[1, 3, 5], &[2, 3, 6]), vec![1, 2, 3, 5, 6]);
        assert_eq!(union(&[], &[4]), vec![4]);
        assert_eq!(union(&[4], &[]), vec![4]);
    }
}

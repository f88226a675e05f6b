//! The graph `ferro graph` prints: named vertices (some drawn with a label and a shape, the rest
//! only named by edges), dependency edges, Terraform's transitive reduction, and its DOT text
//! (vertices sorted by name, then edges sorted as written, in one `subgraph "root"`).

// DOT string literals: Terraform writes the names with Go's `%q`.
use ferro_syntax::go_quote as quote;
use petgraph::algo::toposort;
use petgraph::algo::tred::{dag_to_toposorted_adjacency_list, dag_transitive_reduction_closure};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::IntoNeighbors;
use std::collections::{BTreeSet, HashMap};

/// How a vertex is drawn: its label and shape (`box`, `note`, `diamond`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    pub label: String,
    pub shape: &'static str,
}

#[derive(Debug, Default)]
pub struct DotGraph {
    names: Vec<String>,
    drawn: Vec<Option<Drawn>>,
    by_name: HashMap<String, usize>,
    /// (dependent, dependency)
    edges: BTreeSet<(usize, usize)>,
}

impl DotGraph {
    /// The vertex named `name`, added (with how it is drawn, if it is) when new.
    pub fn vertex(&mut self, name: String, drawn: Option<Drawn>) -> usize {
        if let Some(&i) = self.by_name.get(&name) {
            return i;
        }
        let i = self.names.len();
        self.by_name.insert(name.clone(), i);
        self.names.push(name);
        self.drawn.push(drawn);
        i
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// `from` depends on `to`; an edge from a vertex to itself is left out.
    pub fn edge(&mut self, from: usize, to: usize) {
        if from != to {
            self.edges.insert((from, to));
        }
    }

    /// Vertices nothing depends on.
    pub fn without_dependents(&self) -> Vec<usize> {
        let mut has = vec![false; self.names.len()];
        for (_, to) in &self.edges {
            has[*to] = true;
        }
        (0..self.names.len()).filter(|i| !has[*i]).collect()
    }

    /// The vertices of a cycle, if the graph has one (in the order petgraph's Tarjan finds them).
    pub fn cycle(&self) -> Option<Vec<String>> {
        let g = self.petgraph();
        petgraph::algo::tarjan_scc(&g)
            .into_iter()
            .find(|scc| scc.len() > 1)
            .map(|scc| scc.iter().map(|n| self.names[n.index()].clone()).collect())
    }

    fn petgraph(&self) -> DiGraph<(), ()> {
        let mut g: DiGraph<(), ()> = DiGraph::new();
        for _ in 0..self.names.len() {
            g.add_node(());
        }
        for (from, to) in &self.edges {
            g.add_edge(NodeIndex::new(*from), NodeIndex::new(*to), ());
        }
        g
    }

    /// Remove every edge implied by a longer path, as Terraform does before drawing. A graph
    /// with a cycle is left as it is (Terraform skips the reduction of an invalid graph).
    pub fn reduce(&mut self) {
        let g = self.petgraph();
        let Ok(order) = toposort(&g, None) else {
            return;
        };
        let (list, _) = dag_to_toposorted_adjacency_list::<_, u32>(&g, &order);
        let (reduced, _) = dag_transitive_reduction_closure(&list);
        let mut edges = BTreeSet::new();
        for i in reduced.node_indices() {
            for j in (&reduced).neighbors(i) {
                edges.insert((order[i as usize].index(), order[j as usize].index()));
            }
        }
        self.edges = edges;
    }

    /// The DOT text, as Terraform 1.0.3 writes it (without the blank line the CLI adds).
    pub fn render(&self) -> String {
        let mut out = String::from("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n");
        out.push_str("\tsubgraph \"root\" {\n");
        let mut vertices: Vec<usize> = (0..self.names.len())
            .filter(|i| self.drawn[*i].is_some())
            .collect();
        vertices.sort_by(|a, b| self.names[*a].cmp(&self.names[*b]));
        for i in vertices {
            if let Some(d) = &self.drawn[i] {
                out.push_str(&format!(
                    "\t\t{} [label = {}, shape = {}]\n",
                    quote(&format!("[root] {}", self.names[i])),
                    quote(&d.label),
                    quote(d.shape)
                ));
            }
        }
        let mut edges: Vec<String> = self
            .edges
            .iter()
            .map(|(from, to)| {
                format!(
                    "{} -> {}",
                    quote(&format!("[root] {}", self.names[*from])),
                    quote(&format!("[root] {}", self.names[*to]))
                )
            })
            .collect();
        edges.sort();
        edges.dedup();
        for e in edges {
            out.push_str(&format!("\t\t{e}\n"));
        }
        out.push_str("\t}\n}\n");
        out
    }

    #[cfg(test)]
    fn edge_names(&self) -> Vec<(String, String)> {
        self.edges
            .iter()
            .map(|(a, b)| (self.names[*a].clone(), self.names[*b].clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &str)]) -> DotGraph {
        let mut g = DotGraph::default();
        for (a, b) in edges {
            let a = g.vertex(a.to_string(), None);
            let b = g.vertex(b.to_string(), None);
            g.edge(a, b);
        }
        g
    }

    fn pairs(edges: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = edges
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        v.sort();
        v
    }

    fn reduced(edges: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut g = graph(edges);
        g.reduce();
        let mut v = g.edge_names();
        v.sort();
        v
    }

    #[test]
    fn reduction_drops_edges_implied_by_longer_paths() {
        let r = reduced(&[("a", "b"), ("b", "c"), ("a", "c"), ("c", "d"), ("a", "d")]);
        assert_eq!(r, pairs(&[("a", "b"), ("b", "c"), ("c", "d")]));
    }

    #[test]
    fn reduction_keeps_a_diamond() {
        let edges = [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")];
        let mut with_shortcut = edges.to_vec();
        with_shortcut.push(("a", "d"));
        assert_eq!(reduced(&with_shortcut), pairs(&edges));
    }

    #[test]
    fn reduction_leaves_a_cyclic_graph_alone() {
        let edges = [("a", "b"), ("b", "a"), ("c", "a"), ("c", "b")];
        assert_eq!(reduced(&edges), pairs(&edges));
    }

    #[test]
    fn a_cycle_is_found() {
        assert_eq!(graph(&[("a", "b"), ("c", "a")]).cycle(), None);
        let mut members = graph(&[("a", "b"), ("b", "a"), ("c", "a")])
            .cycle()
            .unwrap();
        members.sort();
        assert_eq!(members, vec!["a".to_string(), "b".to_string()]);
    }

    #[test]
    fn self_edges_are_left_out() {
        let g = graph(&[("a", "a"), ("a", "b")]);
        assert_eq!(g.edge_names(), pairs(&[("a", "b")]));
    }

    #[test]
    fn render_sorts_vertices_and_edges_and_escapes_quotes() {
        let mut g = DotGraph::default();
        let p = g.vertex(
            "provider[\"x/y\"]".into(),
            Some(Drawn {
                label: "provider[\"x/y\"]".into(),
                shape: "diamond",
            }),
        );
        let b = g.vertex(
            "b.x (expand)".into(),
            Some(Drawn {
                label: "b.x".into(),
                shape: "box",
            }),
        );
        let a = g.vertex("a (close)".into(), None);
        g.edge(b, p);
        g.edge(a, b);
        assert_eq!(
            g.render(),
            "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n\
             \t\t\"[root] b.x (expand)\" [label = \"b.x\", shape = \"box\"]\n\
             \t\t\"[root] provider[\\\"x/y\\\"]\" [label = \"provider[\\\"x/y\\\"]\", shape = \"diamond\"]\n\
             \t\t\"[root] a (close)\" -> \"[root] b.x (expand)\"\n\
             \t\t\"[root] b.x (expand)\" -> \"[root] provider[\\\"x/y\\\"]\"\n\
             \t}\n}\n"
        );
    }
}

//! "Did you mean …?": the edit distance HashiCorp's `didyoumean` measures (Levenshtein over
//! characters), shared by every message that suggests a name.

/// The number of single-character insertions, deletions and substitutions from `a` to `b`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest of `candidates` to `name` within an edit distance of 2 (HashiCorp's
/// `didyoumean` threshold), the first of equally close ones: what "Did you mean …?" names.
pub fn suggest<'a, S>(name: &str, candidates: impl IntoIterator<Item = &'a S>) -> Option<&'a S>
where
    S: AsRef<str> + ?Sized + 'a,
{
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c.as_ref()), c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("els", "else"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
    }

    #[test]
    fn suggestions() {
        assert_eq!(super::suggest("els", ["if", "else", "endif"]), Some("else"));
        assert_eq!(super::suggest("xyz", ["if", "else"]), None);
    }
}

//! Length-limited Huffman codes built the way Go's `compress/flate` builds them: symbols sorted
//! by (frequency, symbol), code lengths from the same level-by-level boundary algorithm with its
//! tie-breaking, then canonical codes assigned in symbol order within each length.

/// Frequencies above every real one; marks the end of the leaf list.
const INFINITE: i64 = i32::MAX as i64;

/// A Huffman code: bit length and bit-reversed code (ready for LSB-first output) per symbol.
#[derive(Clone)]
pub(super) struct Code {
    pub len: Vec<u8>,
    pub bits: Vec<u16>,
}

/// Reverses the low `len` bits of `code`.
fn reverse(code: u16, len: u8) -> u16 {
    code.reverse_bits() >> (16 - len as u32)
}

impl Code {
    pub fn new(symbols: usize) -> Code {
        Code {
            len: vec![0; symbols],
            bits: vec![0; symbols],
        }
    }

    /// RFC 1951's fixed literal/length code (symbols 0..286).
    pub fn fixed_literals() -> Code {
        let mut c = Code::new(super::NUM_LITERALS);
        for sym in 0..super::NUM_LITERALS as u16 {
            let (code, len) = match sym {
                0..=143 => (sym + 48, 8),
                144..=255 => (sym + 400 - 144, 9),
                256..=279 => (sym - 256, 7),
                _ => (sym + 192 - 280, 8),
            };
            c.len[sym as usize] = len;
            c.bits[sym as usize] = reverse(code, len);
        }
        c
    }

    /// RFC 1951's fixed distance code: five bits each.
    pub fn fixed_offsets() -> Code {
        let mut c = Code::new(super::NUM_OFFSETS);
        for sym in 0..super::NUM_OFFSETS {
            c.len[sym] = 5;
            c.bits[sym] = reverse(sym as u16, 5);
        }
        c
    }

    /// Bits needed to write symbols with these frequencies.
    pub fn cost(&self, freq: &[u32]) -> usize {
        freq.iter()
            .zip(&self.len)
            .map(|(&f, &l)| f as usize * l as usize)
            .sum()
    }

    /// Rebuilds the code for `freq` with no code longer than `max_bits`.
    pub fn build(&mut self, freq: &[u32], max_bits: usize) {
        let mut leaves: Vec<(u16, i64)> = Vec::with_capacity(freq.len());
        for (sym, &f) in freq.iter().enumerate() {
            if f == 0 {
                self.len[sym] = 0;
            } else {
                leaves.push((sym as u16, f as i64));
            }
        }
        if leaves.len() <= 2 {
            // One or two symbols: one bit each, in symbol order.
            for (i, &(sym, _)) in leaves.iter().enumerate() {
                self.bits[sym as usize] = i as u16;
                self.len[sym as usize] = 1;
            }
            return;
        }
        leaves.sort_by_key(|&(sym, f)| (f, sym));
        let counts = lengths_per_size(&leaves, max_bits);
        self.assign(&counts, &leaves);
    }

    /// Gives the most frequent `counts[1]` leaves one bit, the next `counts[2]` two bits, and so
    /// on; codes of one length go to the symbols in increasing order (canonical codes).
    fn assign(&mut self, counts: &[usize], leaves: &[(u16, i64)]) {
        let mut code: u16 = 0;
        let mut rest = leaves.len();
        for (len, &count) in counts.iter().enumerate() {
            code <<= 1;
            if len == 0 || count == 0 {
                continue;
            }
            let mut chunk: Vec<u16> = leaves[rest - count..rest].iter().map(|l| l.0).collect();
            chunk.sort_unstable();
            for sym in chunk {
                self.bits[sym as usize] = reverse(code, len as u8);
                self.len[sym as usize] = len as u8;
                code += 1;
            }
            rest -= count;
        }
    }
}

/// Per level of the tree: the last node's frequency, the next leaf's and the next pair's.
#[derive(Clone, Copy, Default)]
struct Level {
    last: i64,
    next_leaf: i64,
    next_pair: i64,
    needed: i64,
}

/// How many leaves get each code length (index = length), for leaves sorted by increasing
/// frequency, with lengths limited to `max_bits`. Needs at least three leaves.
fn lengths_per_size(leaves: &[(u16, i64)], max_bits: usize) -> Vec<usize> {
    let n = leaves.len();
    let freq = |i: usize| leaves.get(i).map_or(INFINITE, |l| l.1);
    let max_bits = max_bits.min(n - 1);
    let mut levels = vec![Level::default(); max_bits + 2];
    // leaf_counts[l][j]: leaves left of the level-j ancestor of level l's rightmost node.
    let mut leaf_counts = vec![vec![0usize; max_bits + 2]; max_bits + 2];
    for level in 1..=max_bits {
        levels[level] = Level {
            last: freq(1),
            next_leaf: freq(2),
            next_pair: if level == 1 {
                INFINITE
            } else {
                freq(0) + freq(1)
            },
            needed: 0,
        };
        leaf_counts[level][level] = 2;
    }
    // The top level needs 2n - 2 nodes in all and already has two.
    levels[max_bits].needed = 2 * n as i64 - 4;

    let mut level = max_bits;
    loop {
        if levels[level].next_pair == INFINITE && levels[level].next_leaf == INFINITE {
            // Nothing left to take at this level: finish it and never come back.
            levels[level].needed = 0;
            levels[level + 1].next_pair = INFINITE;
            level += 1;
            continue;
        }
        let previous = levels[level].last;
        if levels[level].next_leaf < levels[level].next_pair {
            let taken = leaf_counts[level][level] + 1;
            levels[level].last = levels[level].next_leaf;
            leaf_counts[level][level] = taken;
            levels[level].next_leaf = freq(taken);
        } else {
            // A pair from the level below; that level must produce two more nodes.
            levels[level].last = levels[level].next_pair;
            let (below, here) = leaf_counts.split_at_mut(level);
            here[0][..level].copy_from_slice(&below[level - 1][..level]);
            levels[level - 1].needed = 2;
        }
        levels[level].needed -= 1;
        if levels[level].needed == 0 {
            if level == max_bits {
                break;
            }
            levels[level + 1].next_pair = previous + levels[level].last;
            level += 1;
        } else {
            while levels[level - 1].needed > 0 {
                level -= 1;
            }
        }
    }
    debug_assert_eq!(leaf_counts[max_bits][max_bits], n);

    let top = &leaf_counts[max_bits];
    let mut counts = vec![0usize; max_bits + 1];
    for (bits, level) in (1..=max_bits).zip((1..=max_bits).rev()) {
        counts[bits] = top[level] - top[level - 1];
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths(freq: &[u32], max_bits: usize) -> Vec<u8> {
        let mut c = Code::new(freq.len());
        c.build(freq, max_bits);
        c.len
    }

    #[test]
    fn few_symbols_get_one_bit() {
        assert_eq!(lengths(&[0, 5, 0, 1], 15), vec![0, 1, 0, 1]);
        assert_eq!(lengths(&[0, 0, 7], 15), vec![0, 0, 1]);
    }

    #[test]
    fn skewed_frequencies_give_a_complete_prefix_code() {
        let freq = [1, 1, 2, 4, 8, 16, 32, 64];
        let len = lengths(&freq, 15);
        assert_eq!(len, vec![7, 7, 6, 5, 4, 3, 2, 1]);
        // Limited to four bits the lengths still satisfy Kraft's equality.
        let len = lengths(&freq, 4);
        assert!(len.iter().all(|&l| (1..=4).contains(&l)));
        let kraft: f64 = len.iter().map(|&l| 0.5f64.powi(l as i32)).sum();
        assert_eq!(kraft, 1.0);
    }

    #[test]
    fn codes_are_canonical_and_bit_reversed() {
        let mut c = Code::new(4);
        c.build(&[3, 1, 1, 5], 15);
        assert_eq!(c.len, vec![2, 3, 3, 1]);
        // Canonical: 3 -> 0, 0 -> 10, 1 -> 110, 2 -> 111, stored reversed.
        assert_eq!(c.bits, vec![0b01, 0b011, 0b111, 0]);
    }
}

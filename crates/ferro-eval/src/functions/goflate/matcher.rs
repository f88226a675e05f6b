//! The LZ77 stage of Go's `compress/flate` at its default level 6: a two-window buffer refilled
//! as Go's `Writer.Write` refills it, 4-byte hash chains (Go's multiplicative hash over 17 bits),
//! lazy matching with Go's good/lazy/nice/chain limits, and a block cut every 16384 tokens.

use super::writer::BlockWriter;
use super::Token;

const WINDOW: usize = 1 << 15;
const WINDOW_MASK: usize = WINDOW - 1;
const MIN_MATCH: usize = 4;
const MAX_MATCH: usize = 258;
const MAX_BLOCK_TOKENS: usize = 1 << 14;
const HASH_BITS: u32 = 17;
const HASH_MUL: u32 = 0x1e35a7bd;
/// Level 6: stop lazy evaluation at a previous match this long, search a quarter of the chain
/// once a match is this good, accept a match this long at once, follow this many chain links.
const LAZY: usize = 16;
const GOOD: usize = 8;
const NICE: usize = 128;
const CHAIN: usize = 128;

fn hash4(b: &[u8]) -> usize {
    let v = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (v.wrapping_mul(HASH_MUL) >> (32 - HASH_BITS)) as usize
}

/// A level-6 compressor writing into a [`BlockWriter`].
pub(super) struct Compressor {
    pub out: BlockWriter,
    window: Vec<u8>,
    /// Chain heads and links hold window position + `hash_offset` (0 = empty).
    hash_head: Vec<usize>,
    hash_prev: Vec<usize>,
    hash_offset: usize,
    chain_head: isize,
    index: usize,
    window_end: usize,
    /// Where the pending tokens' bytes start in the window; `None` once they slid out.
    block_start: Option<usize>,
    byte_available: bool,
    tokens: Vec<Token>,
    length: usize,
    offset: usize,
    max_insert_index: isize,
    sync: bool,
}

impl Compressor {
    pub fn new() -> Compressor {
        Compressor {
            out: BlockWriter::new(),
            window: vec![0; 2 * WINDOW],
            hash_head: vec![0; 1 << HASH_BITS],
            hash_prev: vec![0; WINDOW],
            hash_offset: 1,
            chain_head: -1,
            index: 0,
            window_end: 0,
            block_start: Some(0),
            byte_available: false,
            tokens: Vec::with_capacity(MAX_BLOCK_TOKENS + 1),
            length: MIN_MATCH - 1,
            offset: 0,
            max_insert_index: 0,
            sync: false,
        }
    }

    /// Go's `Write`: alternately compress what the window holds and refill it.
    pub fn write(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            self.deflate();
            let n = self.fill(data);
            data = &data[n..];
        }
    }

    /// Go's `Flush`: compress everything, then an empty stored block to reach a byte boundary.
    pub fn sync_flush(&mut self) {
        self.sync = true;
        self.deflate();
        self.out.stored_header(0, false);
        self.out.bw.align();
        self.sync = false;
    }

    /// Go's `Close`: compress anything left, then a final empty stored block.
    pub fn close(&mut self) {
        self.sync = true;
        self.deflate();
        self.out.stored_header(0, true);
        self.out.bw.align();
    }

    fn fill(&mut self, data: &[u8]) -> usize {
        if self.index >= 2 * WINDOW - (MIN_MATCH + MAX_MATCH) {
            // Slide the upper half down; tokens whose bytes slid out can no longer be stored.
            self.window.copy_within(WINDOW.., 0);
            self.index -= WINDOW;
            self.window_end -= WINDOW;
            self.block_start = self.block_start.and_then(|start| start.checked_sub(WINDOW));
            self.hash_offset += WINDOW;
        }
        let n = data.len().min(self.window.len() - self.window_end);
        self.window[self.window_end..self.window_end + n].copy_from_slice(&data[..n]);
        self.window_end += n;
        n
    }

    fn insert(&mut self, pos: usize) -> usize {
        let h = hash4(&self.window[pos..pos + MIN_MATCH]);
        let previous = self.hash_head[h];
        self.hash_prev[pos & WINDOW_MASK] = previous;
        self.hash_head[h] = pos + self.hash_offset;
        previous
    }

    fn flush_block(&mut self, end: usize) {
        if end == 0 {
            self.tokens.clear();
            return;
        }
        let input = match self.block_start {
            Some(start) if start <= end => Some(&self.window[start..end]),
            _ => None,
        };
        self.out.block(&self.tokens, false, input);
        self.block_start = Some(end);
        self.tokens.clear();
    }

    fn deflate(&mut self) {
        if self.window_end - self.index < MIN_MATCH + MAX_MATCH && !self.sync {
            return;
        }
        self.max_insert_index = self.window_end as isize - (MIN_MATCH as isize - 1);
        loop {
            let lookahead = self.window_end - self.index;
            if lookahead < MIN_MATCH + MAX_MATCH {
                if !self.sync {
                    break;
                }
                if lookahead == 0 {
                    if self.byte_available {
                        self.tokens
                            .push(Token::Literal(self.window[self.index - 1]));
                        self.byte_available = false;
                    }
                    if !self.tokens.is_empty() {
                        self.flush_block(self.index);
                    }
                    break;
                }
            }
            if (self.index as isize) < self.max_insert_index {
                self.chain_head = self.insert(self.index) as isize;
            }
            let prev_length = self.length;
            let prev_offset = self.offset;
            self.length = MIN_MATCH - 1;
            self.offset = 0;
            let min_index = self.index.saturating_sub(WINDOW) as isize;
            let head = self.chain_head - self.hash_offset as isize;
            if head >= min_index && lookahead > prev_length && prev_length < LAZY {
                // Go passes the minimum, not the previous length, so `GOOD` never shortens
                // the search at this level.
                if let Some((length, offset)) =
                    self.find_match(head as usize, MIN_MATCH - 1, lookahead)
                {
                    self.length = length;
                    self.offset = offset;
                }
            }
            if prev_length >= MIN_MATCH && self.length <= prev_length {
                // The match found one byte earlier is at least as good: emit it and hash
                // every position it covers.
                self.tokens.push(Token::Match {
                    xlen: (prev_length - 3) as u8,
                    xoff: (prev_offset - 1) as u16,
                });
                let new_index = self.index + prev_length - 1;
                self.index += 1;
                while self.index < new_index {
                    if (self.index as isize) < self.max_insert_index {
                        self.insert(self.index);
                    }
                    self.index += 1;
                }
                self.byte_available = false;
                self.length = MIN_MATCH - 1;
                if self.tokens.len() == MAX_BLOCK_TOKENS {
                    self.flush_block(self.index);
                }
            } else {
                if self.byte_available {
                    let i = self.index - 1;
                    self.tokens.push(Token::Literal(self.window[i]));
                    if self.tokens.len() == MAX_BLOCK_TOKENS {
                        self.flush_block(i + 1);
                    }
                }
                self.index += 1;
                self.byte_available = true;
            }
        }
    }

    /// The longest match at `index` longer than `prev_length`, following the hash chain from
    /// `head`; a 4-byte match only counts within 4096 bytes.
    fn find_match(
        &self,
        head: usize,
        prev_length: usize,
        lookahead: usize,
    ) -> Option<(usize, usize)> {
        let pos = self.index;
        let look = lookahead.min(MAX_MATCH);
        let win = &self.window[..pos + look];
        let nice = look.min(NICE);
        let mut tries = if prev_length >= GOOD {
            CHAIN >> 2
        } else {
            CHAIN
        };
        let mut length = prev_length;
        let mut found = None;
        let mut end_byte = win[pos + length];
        let min_index = pos as isize - WINDOW as isize;
        let mut i = head;
        while tries > 0 {
            if end_byte == win[i + length] {
                let n = win[i..i + look]
                    .iter()
                    .zip(&win[pos..])
                    .take_while(|(a, b)| a == b)
                    .count();
                if n > length && (n > MIN_MATCH || pos - i <= 4096) {
                    length = n;
                    found = Some((n, pos - i));
                    if n >= nice {
                        break;
                    }
                    end_byte = win[pos + n];
                }
            }
            if i as isize == min_index {
                // The link of this slot was already overwritten by the current position.
                break;
            }
            let next = self.hash_prev[i & WINDOW_MASK] as isize - self.hash_offset as isize;
            if next < min_index || next < 0 {
                break;
            }
            i = next as usize;
            tries -= 1;
        }
        found
    }
}

//! The block writer of Go's `compress/flate`: for each block of tokens it sizes a fixed, a
//! dynamic and (when the block's bytes are still in the window) a stored encoding, writes the
//! smallest with Go's tie-breaking, and emits dynamic headers with Go's run-length coding of the
//! code lengths.

use super::huffman::Code;
use super::{Token, NUM_LITERALS, NUM_OFFSETS};

const END_OF_BLOCK: usize = 256;
const FIRST_LENGTH_CODE: usize = 257;
const CODEGEN_SYMBOLS: usize = 19;
const MAX_STORED: usize = 65535;

/// Extra bits and base (length - 3) of the 29 length codes.
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const LENGTH_BASE: [u16; 29] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128,
    160, 192, 224, 255,
];
/// Extra bits and base (distance - 1) of the 30 distance codes.
const OFFSET_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
const OFFSET_BASE: [u16; 30] = [
    0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536,
    2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576,
];
/// The order in which a dynamic header lists the code-length code's lengths.
const CODEGEN_ORDER: [usize; CODEGEN_SYMBOLS] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// The largest code whose base is at most `value`.
fn code_for(bases: &[u16], value: u16) -> usize {
    bases.partition_point(|&b| b <= value) - 1
}

/// Writes bits least significant first into a byte vector.
#[derive(Default)]
pub(super) struct BitWriter {
    pub out: Vec<u8>,
    bits: u64,
    nbits: u32,
}

impl BitWriter {
    pub fn bits(&mut self, value: u32, count: u32) {
        self.bits |= (value as u64) << self.nbits;
        self.nbits += count;
        while self.nbits >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.nbits -= 8;
        }
    }

    fn code(&mut self, code: &Code, sym: usize) {
        self.bits(code.bits[sym] as u32, code.len[sym] as u32);
    }

    /// Pads to a byte boundary with zero bits.
    pub fn align(&mut self) {
        if self.nbits > 0 {
            self.out.push(self.bits as u8);
        }
        self.bits = 0;
        self.nbits = 0;
    }
}

/// One entry of the run-length coded code lengths: a symbol 0..=18 and its extra-bit value.
type CodegenEntry = (u8, u8);

/// Block encoder state, reused from block to block like Go's `huffmanBitWriter`.
pub(super) struct BlockWriter {
    pub bw: BitWriter,
    literal_freq: Vec<u32>,
    offset_freq: Vec<u32>,
    codegen_freq: [u32; CODEGEN_SYMBOLS],
    codegen: Vec<CodegenEntry>,
    literals: Code,
    offsets: Code,
    codegen_code: Code,
    fixed_literals: Code,
    fixed_offsets: Code,
}

impl BlockWriter {
    pub fn new() -> BlockWriter {
        BlockWriter {
            bw: BitWriter::default(),
            literal_freq: vec![0; NUM_LITERALS],
            offset_freq: vec![0; NUM_OFFSETS],
            codegen_freq: [0; CODEGEN_SYMBOLS],
            codegen: Vec::new(),
            literals: Code::new(NUM_LITERALS),
            offsets: Code::new(NUM_OFFSETS),
            codegen_code: Code::new(CODEGEN_SYMBOLS),
            fixed_literals: Code::fixed_literals(),
            fixed_offsets: Code::fixed_offsets(),
        }
    }

    /// A stored block header: three header bits, padding, then the length and its complement.
    pub fn stored_header(&mut self, len: usize, last: bool) {
        self.bw.bits(last as u32, 3);
        self.bw.align();
        self.bw.bits(len as u32, 16);
        self.bw.bits(!(len as u16) as u32, 16);
    }

    /// Writes `tokens` as one block in the smallest of the fixed, dynamic and stored encodings
    /// (stored only when `input`, the bytes the tokens stand for, is given and short enough).
    pub fn block(&mut self, tokens: &[Token], last: bool, input: Option<&[u8]>) {
        let (num_literals, num_offsets) = self.count(tokens);
        let stored_bits = input
            .filter(|b| b.len() <= MAX_STORED)
            .map(|b| (b.len() + 5) * 8);
        let mut extra_bits = 0;
        if stored_bits.is_some() {
            // Extra bits cost the same in the fixed and dynamic encodings; they only matter
            // against the stored size.
            for code in FIRST_LENGTH_CODE + 8..num_literals {
                extra_bits += self.literal_freq[code] as usize
                    * LENGTH_EXTRA[code - FIRST_LENGTH_CODE] as usize;
            }
            // (The first four distance codes have no extra bits.)
            extra_bits += self.offset_freq[..num_offsets]
                .iter()
                .zip(&OFFSET_EXTRA)
                .map(|(&f, &extra)| f as usize * extra as usize)
                .sum::<usize>();
        }
        let fixed_bits = 3
            + self.fixed_literals.cost(&self.literal_freq)
            + self.fixed_offsets.cost(&self.offset_freq)
            + extra_bits;

        self.build_codegen(num_literals, num_offsets);
        self.codegen_code.build(&self.codegen_freq, 7);
        let num_codegens = self.codegen_symbols();
        let dynamic_bits = self.dynamic_header_bits(num_codegens)
            + self.literals.cost(&self.literal_freq)
            + self.offsets.cost(&self.offset_freq)
            + extra_bits;

        let dynamic = dynamic_bits < fixed_bits;
        let best = fixed_bits.min(dynamic_bits);
        if let (Some(stored), Some(bytes)) = (stored_bits, input) {
            if stored < best {
                self.stored_header(bytes.len(), last);
                self.bw.out.extend_from_slice(bytes);
                return;
            }
        }
        if dynamic {
            self.dynamic_header(num_literals, num_offsets, num_codegens, last);
            self.tokens(tokens, false);
        } else {
            self.bw.bits(if last { 3 } else { 2 }, 3);
            self.tokens(tokens, true);
        }
    }

    /// Counts symbol frequencies (with the end-of-block marker), builds the dynamic codes, and
    /// returns how many literal/length and distance codes the header must list.
    fn count(&mut self, tokens: &[Token]) -> (usize, usize) {
        self.literal_freq.fill(0);
        self.offset_freq.fill(0);
        for t in tokens {
            match *t {
                Token::Literal(b) => self.literal_freq[b as usize] += 1,
                Token::Match { xlen, xoff } => {
                    self.literal_freq[FIRST_LENGTH_CODE + code_for(&LENGTH_BASE, xlen as u16)] += 1;
                    self.offset_freq[code_for(&OFFSET_BASE, xoff)] += 1;
                }
            }
        }
        self.literal_freq[END_OF_BLOCK] += 1;
        let num_literals = self.literal_freq.iter().rposition(|&f| f != 0).unwrap_or(0) + 1;
        let mut num_offsets = self
            .offset_freq
            .iter()
            .rposition(|&f| f != 0)
            .map_or(0, |i| i + 1);
        if num_offsets == 0 {
            // No match at all: one dummy distance code keeps the dynamic header encodable.
            self.offset_freq[0] = 1;
            num_offsets = 1;
        }
        self.literals.build(&self.literal_freq, 15);
        self.offsets.build(&self.offset_freq, 15);
        (num_literals, num_offsets)
    }

    /// Run-length codes the literal and distance code lengths (symbols 16, 17 and 18 of RFC 1951
    /// section 3.2.7) the way Go does, and counts the symbols used.
    fn build_codegen(&mut self, num_literals: usize, num_offsets: usize) {
        self.codegen_freq = [0; CODEGEN_SYMBOLS];
        self.codegen.clear();
        let lengths: Vec<u8> = self.literals.len[..num_literals]
            .iter()
            .chain(&self.offsets.len[..num_offsets])
            .copied()
            .collect();
        let mut i = 0;
        while i < lengths.len() {
            let size = lengths[i];
            let mut count = lengths[i..].iter().take_while(|&&l| l == size).count();
            i += count;
            if size != 0 {
                self.emit(size, 0);
                count -= 1;
                while count >= 3 {
                    let n = count.min(6);
                    self.emit(16, (n - 3) as u8);
                    count -= n;
                }
            } else {
                while count >= 11 {
                    let n = count.min(138);
                    self.emit(18, (n - 11) as u8);
                    count -= n;
                }
                if count >= 3 {
                    self.emit(17, (count - 3) as u8);
                    count = 0;
                }
            }
            for _ in 0..count {
                self.emit(size, 0);
            }
        }
    }

    fn emit(&mut self, sym: u8, extra: u8) {
        self.codegen.push((sym, extra));
        self.codegen_freq[sym as usize] += 1;
    }

    /// How many code-length code lengths the header lists (trailing zeros dropped, at least 4).
    fn codegen_symbols(&self) -> usize {
        let mut n = CODEGEN_SYMBOLS;
        while n > 4 && self.codegen_freq[CODEGEN_ORDER[n - 1]] == 0 {
            n -= 1;
        }
        n
    }

    fn dynamic_header_bits(&self, num_codegens: usize) -> usize {
        3 + 5
            + 5
            + 4
            + 3 * num_codegens
            + self.codegen_code.cost(&self.codegen_freq)
            + self.codegen_freq[16] as usize * 2
            + self.codegen_freq[17] as usize * 3
            + self.codegen_freq[18] as usize * 7
    }

    fn dynamic_header(&mut self, literals: usize, offsets: usize, codegens: usize, last: bool) {
        self.bw.bits(if last { 5 } else { 4 }, 3);
        self.bw.bits((literals - 257) as u32, 5);
        self.bw.bits((offsets - 1) as u32, 5);
        self.bw.bits((codegens - 4) as u32, 4);
        for &sym in &CODEGEN_ORDER[..codegens] {
            self.bw.bits(self.codegen_code.len[sym] as u32, 3);
        }
        for &(sym, extra) in &self.codegen {
            self.bw.code(&self.codegen_code, sym as usize);
            match sym {
                16 => self.bw.bits(extra as u32, 2),
                17 => self.bw.bits(extra as u32, 3),
                18 => self.bw.bits(extra as u32, 7),
                _ => {}
            }
        }
    }

    /// Writes the tokens and the end-of-block marker with the fixed or the dynamic codes.
    fn tokens(&mut self, tokens: &[Token], fixed: bool) {
        let (lit, off) = if fixed {
            (&self.fixed_literals, &self.fixed_offsets)
        } else {
            (&self.literals, &self.offsets)
        };
        let bw = &mut self.bw;
        for t in tokens {
            match *t {
                Token::Literal(b) => bw.code(lit, b as usize),
                Token::Match { xlen, xoff } => {
                    let lc = code_for(&LENGTH_BASE, xlen as u16);
                    bw.code(lit, FIRST_LENGTH_CODE + lc);
                    if LENGTH_EXTRA[lc] > 0 {
                        bw.bits(
                            (xlen as u16 - LENGTH_BASE[lc]) as u32,
                            LENGTH_EXTRA[lc] as u32,
                        );
                    }
                    let oc = code_for(&OFFSET_BASE, xoff);
                    bw.code(off, oc);
                    if OFFSET_EXTRA[oc] > 0 {
                        bw.bits((xoff - OFFSET_BASE[oc]) as u32, OFFSET_EXTRA[oc] as u32);
                    }
                }
            }
        }
        bw.code(lit, END_OF_BLOCK);
    }
}

//! A deflate encoder that produces the same bytes as Go's `compress/flate` at the default
//! level, so that `base64gzip` matches Terraform (which gzips with Go's `compress/gzip`).
//!
//! `matcher` finds the LZ77 tokens, `writer` picks and writes each block's encoding, and
//! `huffman` builds the codes; this module adds the gzip framing Terraform's call sequence
//! (`Write`, `Flush`, `Close`) produces.

mod huffman;
mod matcher;
mod writer;

/// Literal/length symbols (0..=285) and distance symbols (0..=29).
const NUM_LITERALS: usize = 286;
const NUM_OFFSETS: usize = 30;

/// One LZ77 token: a literal byte, or a match of `xlen + 3` bytes at distance `xoff + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Literal(u8),
    Match { xlen: u8, xoff: u16 },
}

/// Raw deflate data as Go's `flate.Writer` at level 6 writes it for `Write(data)`, `Flush()`,
/// `Close()`.
pub(crate) fn deflate_write_flush_close(data: &[u8]) -> Vec<u8> {
    let mut c = matcher::Compressor::new();
    c.write(data);
    c.sync_flush();
    c.close();
    std::mem::take(&mut c.out.bw.out)
}

/// Gzip as Terraform's `base64gzip` builds it: a header with no name or time, OS 255, the
/// deflate data, then CRC-32 and length.
pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    out.extend_from_slice(&deflate_write_flush_close(data));
    out.extend_from_slice(&crc32(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

/// CRC-32 (IEEE 802.3, reflected, as gzip uses it).
fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, slot) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *slot = c;
    }
    !data.iter().fold(!0u32, |c, &b| {
        table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_check_string() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn empty_input_is_two_empty_stored_blocks() {
        assert_eq!(
            deflate_write_flush_close(b""),
            vec![0, 0, 0, 0xff, 0xff, 1, 0, 0, 0xff, 0xff]
        );
    }
}

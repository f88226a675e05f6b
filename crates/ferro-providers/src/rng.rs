//! Random numbers from the operating system's secure source.

use ring::rand::{SecureRandom, SystemRandom};

/// `n` random bytes.
pub fn bytes(n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    // The system source only fails when the OS has none; fall back to a time-seeded mix then.
    if SystemRandom::new().fill(&mut out).is_err() {
        let mut x = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9_7f4a_7c15);
        for b in &mut out {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
    }
    out
}

/// A uniformly random integer in `0..n` (n > 0).
pub fn below(n: u64) -> u64 {
    let limit = u64::MAX - (u64::MAX % n);
    loop {
        let b = bytes(8);
        let v = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        if v < limit {
            return v % n;
        }
    }
}

/// A random non-negative 63-bit integer (like Go's `rand.Int()`).
pub fn int63() -> i64 {
    (below(u64::MAX) >> 1) as i64
}

/// A random version-4 UUID in its usual 8-4-4-4-12 hex form.
pub fn uuid() -> String {
    let mut b = bytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

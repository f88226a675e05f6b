//! Just enough of the zip format to read provider packages (`terraform-provider-X_V_OS_ARCH.zip`):
//! the central directory, stored and deflated entries, CRC-32 checks and unix permission bits.
//! ZIP64 and encryption are refused with a clear error.

use std::path::{Component, Path};

/// One file of an archive, decompressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub data: Vec<u8>,
    /// Unix mode bits when the archive recorded them.
    pub mode: Option<u32>,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// Read every entry of a zip archive.
pub fn read_zip(bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let corrupt = |what: &str| format!("not a valid zip archive ({what})");
    // End of central directory: the last occurrence of its signature.
    let min = bytes.len().saturating_sub(22 + 65535);
    let eocd = (min..=bytes.len().saturating_sub(22))
        .rev()
        .find(|&i| u32_at(bytes, i) == Some(0x0605_4b50))
        .ok_or_else(|| corrupt("no end of central directory"))?;
    let count = u16_at(bytes, eocd + 10).ok_or_else(|| corrupt("truncated"))? as usize;
    let cd_offset = u32_at(bytes, eocd + 16).ok_or_else(|| corrupt("truncated"))? as usize;
    if count == 0xffff || cd_offset == 0xffff_ffff {
        return Err("ZIP64 archives are not supported".into());
    }
    let mut out = Vec::with_capacity(count);
    let mut at = cd_offset;
    for _ in 0..count {
        if u32_at(bytes, at) != Some(0x0201_4b50) {
            return Err(corrupt("bad central directory entry"));
        }
        let field16 = |off: usize| u16_at(bytes, at + off).ok_or_else(|| corrupt("truncated"));
        let field32 = |off: usize| u32_at(bytes, at + off).ok_or_else(|| corrupt("truncated"));
        let made_by = field16(4)?;
        let flags = field16(8)?;
        let method = field16(10)?;
        let crc = field32(16)?;
        let csize = field32(20)? as usize;
        let usize_ = field32(24)? as usize;
        let name_len = field16(28)? as usize;
        let extra_len = field16(30)? as usize;
        let comment_len = field16(32)? as usize;
        let external = field32(38)?;
        let local = field32(42)? as usize;
        let name = bytes
            .get(at + 46..at + 46 + name_len)
            .ok_or_else(|| corrupt("truncated name"))?;
        let name = String::from_utf8_lossy(name).into_owned();
        at += 46 + name_len + extra_len + comment_len;
        if flags & 1 != 0 {
            return Err(format!("the zip entry {name:?} is encrypted"));
        }
        if csize == 0xffff_ffff || usize_ == 0xffff_ffff || local == 0xffff_ffff {
            return Err("ZIP64 archives are not supported".into());
        }
        if u32_at(bytes, local) != Some(0x0403_4b50) {
            return Err(corrupt("bad local header"));
        }
        let lname = u16_at(bytes, local + 26).ok_or_else(|| corrupt("truncated"))? as usize;
        let lextra = u16_at(bytes, local + 28).ok_or_else(|| corrupt("truncated"))? as usize;
        let start = local + 30 + lname + lextra;
        let raw = bytes
            .get(start..start + csize)
            .ok_or_else(|| corrupt("truncated data"))?;
        let data = match method {
            0 => raw.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec(raw)
                .map_err(|e| format!("cannot inflate {name:?}: {e:?}"))?,
            m => {
                return Err(format!(
                    "the zip entry {name:?} uses unsupported compression method {m}"
                ))
            }
        };
        if data.len() != usize_ || crc32(&data) != crc {
            return Err(format!(
                "the zip entry {name:?} is corrupt (size or CRC-32 mismatch)"
            ));
        }
        // Version-made-by host 3 = Unix: the high 16 bits of the external attributes are st_mode.
        let mode = if made_by >> 8 == 3 {
            Some((external >> 16) & 0o7777)
        } else {
            None
        };
        out.push(Entry { name, data, mode });
    }
    Ok(out)
}

/// Write the entries under `dir` (refusing paths that escape it).
pub fn extract(entries: &[Entry], dir: &Path) -> Result<(), String> {
    for e in entries {
        let rel = Path::new(&e.name);
        if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(format!("the package contains an unsafe path {:?}", e.name));
        }
        let dest = dir.join(rel);
        if e.name.ends_with('/') {
            std::fs::create_dir_all(&dest)
                .map_err(|err| format!("cannot create {}: {err}", dest.display()))?;
            continue;
        }
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|err| format!("cannot create {}: {err}", parent.display()))?;
        }
        std::fs::write(&dest, &e.data)
            .map_err(|err| format!("cannot write {}: {err}", dest.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = match e.mode {
                Some(m) if m & 0o111 != 0 => 0o755,
                Some(_) => 0o644,
                None => 0o755,
            };
            std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(mode))
                .map_err(|err| format!("cannot set permissions on {}: {err}", dest.display()))?;
        }
    }
    Ok(())
}

/// CRC-32 (IEEE), as zip uses.
pub fn crc32(data: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, slot) in t.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            *slot = c;
        }
        t
    });
    let mut crc = !0u32;
    for &b in data {
        crc = table[((crc ^ b as u32) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

/// Build a zip archive (stored or deflated entries, unix modes). Used by tests to make packed
/// mirror packages.
pub fn write_zip(entries: &[(&str, &[u8], u32, bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data, mode, deflate) in entries {
        let (method, payload): (u16, Vec<u8>) = if *deflate {
            (8, miniz_oxide::deflate::compress_to_vec(data, 6))
        } else {
            (0, data.to_vec())
        };
        let crc = crc32(data);
        let offset = out.len() as u32;
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&20u16.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&method.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&payload);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&(3u16 << 8 | 20).to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&method.to_le_bytes());
        central.extend_from_slice(&[0; 4]);
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        central.extend_from_slice(&(data.len() as u32).to_le_bytes());
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        central.extend_from_slice(&[0; 8]);
        central.extend_from_slice(&((0o100000 | mode) << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_known_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn round_trip_stored_and_deflated() {
        let big = vec![b'a'; 10_000];
        let z = write_zip(&[
            ("bin/tool", &big, 0o755, true),
            ("README", b"hi", 0o644, false),
        ]);
        let entries = read_zip(&z).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(
            entries[0],
            Entry {
                name: "bin/tool".into(),
                data: big,
                mode: Some(0o755)
            }
        );
        assert_eq!(entries[1].data, b"hi");
        assert_eq!(entries[1].mode, Some(0o644));
    }

    #[test]
    fn corrupt_archives_are_errors() {
        assert!(read_zip(b"not a zip").is_err());
        let mut z = write_zip(&[("f", b"hello", 0o644, false)]);
        let pos = z.windows(5).position(|w| w == b"hello").unwrap();
        z[pos] = b'j';
        assert!(read_zip(&z).unwrap_err().contains("corrupt"));
    }

    #[test]
    fn extraction_refuses_escaping_paths() {
        let dir = std::env::temp_dir().join(format!("ferro-zip-{}", std::process::id()));
        let entries = vec![Entry {
            name: "../evil".into(),
            data: Vec::new(),
            mode: None,
        }];
        assert!(extract(&entries, &dir).unwrap_err().contains("unsafe path"));
    }
}

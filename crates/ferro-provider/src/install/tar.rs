//! Just enough of gzip and tar to read module archives (`.tar.gz`, `.tgz`): gzip members with
//! their optional header fields and CRC-32 check, ustar and GNU entries (regular files,
//! directories, GNU long names, pax `path` records). Links and devices are refused. The
//! entries come out as [`zip::Entry`](super::zip::Entry) values, so [`super::zip::extract`]
//! writes them.

use super::zip::{crc32, Entry};

/// Decompress a gzip stream.
pub fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let bad = |what: &str| format!("not a valid gzip stream ({what})");
    if bytes.len() < 18 || bytes[0] != 0x1f || bytes[1] != 0x8b {
        return Err(bad("no gzip header"));
    }
    if bytes[2] != 8 {
        return Err(bad("unknown compression method"));
    }
    let flags = bytes[3];
    let mut at = 10;
    if flags & 4 != 0 {
        let len = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
        at += 2 + len;
    }
    for flag in [8u8, 16] {
        if flags & flag != 0 {
            let end = bytes
                .get(at..)
                .and_then(|r| r.iter().position(|&b| b == 0))
                .ok_or_else(|| bad("truncated header"))?;
            at += end + 1;
        }
    }
    if flags & 2 != 0 {
        at += 2;
    }
    if at + 8 > bytes.len() {
        return Err(bad("truncated"));
    }
    let body = &bytes[at..bytes.len() - 8];
    let data = miniz_oxide::inflate::decompress_to_vec(body)
        .map_err(|e| format!("cannot inflate the gzip stream: {e:?}"))?;
    let trailer = &bytes[bytes.len() - 8..];
    let crc = u32::from_le_bytes(trailer[0..4].try_into().unwrap_or_default());
    let size = u32::from_le_bytes(trailer[4..8].try_into().unwrap_or_default());
    if crc32(&data) != crc || data.len() as u32 != size {
        return Err(bad("CRC-32 or size mismatch"));
    }
    Ok(data)
}

/// Compress `data` as one gzip member (used by tests to make module archives).
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    out.extend(miniz_oxide::deflate::compress_to_vec(data, 6));
    out.extend(crc32(data).to_le_bytes());
    out.extend((data.len() as u32).to_le_bytes());
    out
}

fn octal(field: &[u8]) -> Result<u64, String> {
    let text: String = field
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect();
    let text = text.trim();
    if text.is_empty() {
        return Ok(0);
    }
    u64::from_str_radix(text, 8).map_err(|_| format!("invalid tar header number {text:?}"))
}

fn text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// Read every entry of a tar archive.
pub fn read_tar(bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut long_name: Option<String> = None;
    while at + 512 <= bytes.len() {
        let header = &bytes[at..at + 512];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let sum: u64 = header
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    b as u64
                }
            })
            .sum();
        if octal(&header[148..156])? != sum {
            return Err("not a valid tar archive (header checksum mismatch)".into());
        }
        let size = octal(&header[124..136])? as usize;
        let kind = header[156];
        let data_start = at + 512;
        let data = bytes
            .get(data_start..data_start + size)
            .ok_or("not a valid tar archive (truncated entry)")?;
        at = data_start + size.div_ceil(512) * 512;
        let mut name = text(&header[0..100]);
        if &header[257..262] == b"ustar" {
            let prefix = text(&header[345..500]);
            if !prefix.is_empty() {
                name = format!("{prefix}/{name}");
            }
        }
        if let Some(n) = long_name.take() {
            name = n;
        }
        match kind {
            b'L' => long_name = Some(text(data)),
            b'x' => {
                // pax extended header: "LEN key=value\n" records; only `path` matters here.
                let records = String::from_utf8_lossy(data);
                for rec in records.lines() {
                    if let Some((_, kv)) = rec.split_once(' ') {
                        if let Some(p) = kv.strip_prefix("path=") {
                            long_name = Some(p.to_string());
                        }
                    }
                }
            }
            b'g' => {}
            b'0' | 0 | b'7' => out.push(Entry {
                name,
                data: data.to_vec(),
                mode: Some(octal(&header[100..108])? as u32 & 0o7777),
            }),
            b'5' => out.push(Entry {
                name: if name.ends_with('/') {
                    name
                } else {
                    format!("{name}/")
                },
                data: Vec::new(),
                mode: None,
            }),
            other => {
                return Err(format!(
                    "the archive entry {name:?} has an unsupported type ({:?}): links and devices are not installed",
                    other as char
                ))
            }
        }
    }
    Ok(out)
}

/// Write a ustar archive of regular files (used by tests to make module archives).
pub fn write_tar(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, data) in files {
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name.as_bytes());
        h[100..107].copy_from_slice(b"0000644");
        h[108..115].copy_from_slice(b"0000000");
        h[116..123].copy_from_slice(b"0000000");
        h[124..135].copy_from_slice(format!("{:011o}", data.len()).as_bytes());
        h[136..147].copy_from_slice(b"00000000000");
        h[156] = b'0';
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| b as u32).sum();
        h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.extend_from_slice(&[0u8; 1024]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tar_gz_round_trip() {
        let tar = write_tar(&[("main.tf", b"# a\n"), ("sub/x.tf", b"")]);
        let back = read_tar(&gunzip(&gzip(&tar)).unwrap()).unwrap();
        let names: Vec<&str> = back.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["main.tf", "sub/x.tf"]);
        assert_eq!(back[0].data, b"# a\n");
        assert!(gunzip(b"not gzip at all, really").is_err());
        let mut broken = gzip(b"hello");
        let n = broken.len();
        broken[n - 5] ^= 1;
        assert!(gunzip(&broken).is_err());
    }
}

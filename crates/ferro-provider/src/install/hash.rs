//! Package hashes for `.terraform.lock.hcl`: the `h1:` scheme is Go's `dirhash.Hash1` — the
//! SHA-256 of a manifest with one `sha256hex  relative/path\n` line per file, sorted by path,
//! base64-encoded — over an unpacked package directory or over the entries of a zip package.

use base64::Engine;
use sha2::{Digest, Sha256};
use std::path::Path;

/// `h1:` hash of a set of (relative path, contents) files.
pub fn hash1<'a>(files: impl IntoIterator<Item = (String, &'a [u8])>) -> Result<String, String> {
    manifest_hash(
        files
            .into_iter()
            .map(|(name, data)| (name, hex(&Sha256::digest(data))))
            .collect(),
    )
}

/// `h1:` hash over (relative path, hex SHA-256 of the contents) lines.
fn manifest_hash(mut lines: Vec<(String, String)>) -> Result<String, String> {
    if let Some((name, _)) = lines.iter().find(|(name, _)| name.contains('\n')) {
        return Err(format!("the file name {name:?} contains a newline"));
    }
    lines.sort();
    let mut manifest = Sha256::new();
    for (name, sum) in &lines {
        manifest.update(format!("{sum}  {name}\n").as_bytes());
    }
    Ok(format!(
        "h1:{}",
        base64::engine::general_purpose::STANDARD.encode(manifest.finalize())
    ))
}

/// `h1:` hash of an unpacked package directory (symlinks followed, as Terraform does).
pub fn hash_dir(dir: &Path) -> Result<String, String> {
    let root =
        std::fs::canonicalize(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut lines = Vec::new();
    collect(&root, "", &mut lines)?;
    manifest_hash(lines)
}

/// The (relative path, hex SHA-256) of every file under `dir`. Files are read in blocks, so
/// hashing a provider (tens of megabytes) does not hold it in memory.
fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let path = entry.path();
        // filepath.Walk does not descend into symlinked directories; files behind symlinks are read.
        let ft = entry
            .file_type()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if ft.is_dir() {
            collect(&path, &rel, out)?;
        } else {
            let sum =
                file_digest(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            out.push((rel, sum));
        }
    }
    Ok(())
}

fn file_digest(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match file.read(&mut buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => r?,
        };
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// `h1:` hash of a zip package: the same manifest over the archive's entries.
pub fn hash_zip(entries: &[super::zip::Entry]) -> Result<String, String> {
    hash1(entries.iter().map(|e| (e.name.clone(), e.data.as_slice())))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_format_matches_go_dirhash() {
        // dirhash.Hash1 over {"a.txt": "hello\n"}: sha256("hello\n") =
        // 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03, and the manifest is
        // "5891…be03  a.txt\n"; its sha256 in base64 is the hash.
        let manifest = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  a.txt\n";
        let expected = format!(
            "h1:{}",
            base64::engine::general_purpose::STANDARD.encode(Sha256::digest(manifest.as_bytes()))
        );
        assert_eq!(
            hash1([("a.txt".to_string(), &b"hello\n"[..])]).unwrap(),
            expected
        );
    }

    #[test]
    fn order_of_files_does_not_matter_but_names_and_contents_do() {
        let a = hash1([("x".to_string(), &b"1"[..]), ("y".to_string(), &b"2"[..])]).unwrap();
        let b = hash1([("y".to_string(), &b"2"[..]), ("x".to_string(), &b"1"[..])]).unwrap();
        let c = hash1([("x".to_string(), &b"2"[..]), ("y".to_string(), &b"1"[..])]).unwrap();
        let d = hash1([("x".to_string(), &b"1"[..]), ("z".to_string(), &b"2"[..])]).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
        assert!(hash1([("bad\nname".to_string(), &b""[..])]).is_err());
    }

    #[test]
    fn directory_hash_uses_relative_slash_paths() {
        let dir = std::env::temp_dir().join(format!("ferro-h1-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.txt"), "hello\n").unwrap();
        std::fs::write(dir.join("sub/b"), "x").unwrap();
        let expected = hash1([
            ("a.txt".to_string(), &b"hello\n"[..]),
            ("sub/b".to_string(), &b"x"[..]),
        ])
        .unwrap();
        assert_eq!(hash_dir(&dir).unwrap(), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

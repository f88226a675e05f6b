//! The saved plan file (`ferro plan -out=FILE`): a zip-free, versioned JSON document.
//!
//! Terraform's plan files are zip archives of protobufs that no other tool reads; ferro's are
//! its own format (see docs/compatibility.md). The file starts with a magic header line so a
//! Terraform plan or a random file is recognised and refused with a clear error.

use crate::{Plan, PLAN_FORMAT_VERSION};

const MAGIC: &str = "ferro-plan";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFileError(pub String);

impl std::fmt::Display for PlanFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn write_plan_file(plan: &Plan) -> Result<Vec<u8>, PlanFileError> {
    let mut out = Vec::new();
    write_plan_file_to(plan, &mut out)?;
    Ok(out)
}

/// [`write_plan_file`] streamed into `w` (a large plan is never held encoded in memory).
pub fn write_plan_file_to(plan: &Plan, w: &mut dyn std::io::Write) -> Result<(), PlanFileError> {
    let fail =
        |e: &dyn std::fmt::Display| PlanFileError(format!("the plan could not be encoded: {e}"));
    writeln!(w, "{MAGIC} {PLAN_FORMAT_VERSION}").map_err(|e| fail(&e))?;
    serde_json::to_writer(&mut *w, plan).map_err(|e| fail(&e))?;
    w.flush().map_err(|e| fail(&e))
}

pub fn read_plan_file(bytes: &[u8]) -> Result<Plan, PlanFileError> {
    read_plan_file_from(bytes)
}

/// [`read_plan_file`] streamed from `r` (a large plan file is never held whole in memory: at
/// 100 000 instances it is several times the plan it decodes to).
pub fn read_plan_file_from(r: impl std::io::Read) -> Result<Plan, PlanFileError> {
    let not_plan = || PlanFileError("the file is not a ferro plan file".into());
    let mut r = std::io::BufReader::with_capacity(1 << 16, r);
    // The header line, read without holding more than it (a file that is not a plan may have
    // no line break at all).
    let mut header = Vec::new();
    std::io::BufRead::read_until(
        &mut std::io::Read::take(&mut r, HEADER_MAX as u64),
        b'\n',
        &mut header,
    )
    .map_err(|e| PlanFileError(format!("the plan file could not be read: {e}")))?;
    if header.pop() != Some(b'\n') {
        return Err(not_plan());
    }
    let header = std::str::from_utf8(&header).map_err(|_| not_plan())?;
    let mut parts = header.split(' ');
    if parts.next() != Some(MAGIC) {
        return Err(not_plan());
    }
    let version: u32 = parts.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    if version != PLAN_FORMAT_VERSION {
        return Err(PlanFileError(format!(
            "the plan file has format version {version}, but this ferro reads version {PLAN_FORMAT_VERSION}; create the plan again with this version"
        )));
    }
    let plan: Plan = serde_json::from_reader(r)
        .map_err(|e| PlanFileError(format!("the plan file is corrupt: {e}")))?;
    crate::check_consistency(&plan)
        .map_err(|e| PlanFileError(format!("the plan file is inconsistent: {e}")))?;
    Ok(plan)
}

/// The longest header line a plan file has (its magic, a space and a version number).
const HEADER_MAX: usize = 64;

#[cfg(test)]
mod tests {
    use super::{read_plan_file, read_plan_file_from};

    /// A file that is not a plan is refused on its first line, long or without a line break,
    /// with the same message.
    #[test]
    fn a_file_that_is_not_a_plan_is_refused_on_its_header() {
        let long_line = format!("{}\n{{}}", "x".repeat(100_000));
        for text in ["no line break", "{\"version\": 4}\n", long_line.as_str()] {
            let err = read_plan_file_from(text.as_bytes()).unwrap_err();
            assert_eq!(err.0, "the file is not a ferro plan file", "{text:.40}");
        }
    }

    /// A plan file written by a ferro whose plans had another shape is refused with what to do,
    /// not read with parts of its changes missing.
    #[test]
    fn a_plan_file_of_another_format_version_is_refused() {
        let old = b"ferro-plan 1\n{}";
        let err = read_plan_file(old).unwrap_err();
        assert!(
            err.0.contains("format version 1") && err.0.contains("create the plan again"),
            "{}",
            err.0
        );
    }
}

//! Terraform's validation of a resource's provisioners: each provisioner's arguments against
//! its schema (`local-exec`, `file`, `remote-exec`), the provisioner's own checks of its
//! configuration, then its connection settings (the resource's `connection` block with the
//! provisioner's own over it) against the superset of every communicator's arguments. As in
//! Terraform 1.0.3, the first provisioner with an error ends the resource's validation.

use super::Validator;
use ferro_diag::Diagnostic;
use ferro_hir::{BlockBody, Provisioner, ResourceDecl};
use ferro_value::schema::{Attribute, Block};
use ferro_value::Type;

fn block(attrs: &[(&str, Type, bool)]) -> Block {
    Block {
        attributes: attrs
            .iter()
            .map(|(name, ty, required)| {
                let a = Attribute::new(ty.clone());
                let a = if *required {
                    a.required()
                } else {
                    a.optional()
                };
                (name.to_string(), a)
            })
            .collect(),
        block_types: Default::default(),
        description: String::new(),
        description_markdown: false,
        deprecated: false,
    }
}

/// The schema of a provisioner type's own arguments.
fn provisioner_schema(kind: &str) -> Option<Block> {
    let s = || Type::String;
    let strings = || Type::list(Type::String);
    Some(match kind {
        "local-exec" => block(&[
            ("command", s(), true),
            ("interpreter", strings(), false),
            ("environment", Type::map(Type::String), false),
            ("working_dir", s(), false),
            ("quiet", Type::Bool, false),
        ]),
        "file" => block(&[
            ("source", s(), false),
            ("content", s(), false),
            ("destination", s(), true),
        ]),
        "remote-exec" => block(&[
            ("inline", strings(), false),
            ("script", s(), false),
            ("scripts", strings(), false),
        ]),
        _ => return None,
    })
}

/// Terraform's superset schema of the SSH and WinRM communicators' connection arguments.
fn connection_schema() -> Block {
    let mut attrs: Vec<(&str, Type, bool)> = vec![("host", Type::String, true)];
    for name in [
        "type",
        "user",
        "password",
        "timeout",
        "script_path",
        "target_platform",
        "private_key",
        "certificate",
        "host_key",
        "agent_identity",
        "bastion_host",
        "bastion_host_key",
        "bastion_user",
        "bastion_password",
        "bastion_private_key",
        "bastion_certificate",
        "cacert",
    ] {
        attrs.push((name, Type::String, false));
    }
    for name in ["port", "bastion_port"] {
        attrs.push((name, Type::Number, false));
    }
    for name in ["agent", "https", "insecure", "use_ntlm"] {
        attrs.push((name, Type::Bool, false));
    }
    block(&attrs)
}

/// The connection body a provisioner sees: the resource's block with the provisioner's
/// arguments over it (HCL's merged bodies: the first body's range for a missing argument).
pub(crate) fn merged_connection(
    resource: Option<&BlockBody>,
    own: Option<&BlockBody>,
) -> Option<BlockBody> {
    match (resource, own) {
        (None, None) => None,
        (Some(b), None) | (None, Some(b)) => Some(b.clone()),
        (Some(base), Some(own)) => {
            let mut out = base.clone();
            out.attrs
                .retain(|a| !own.attrs.iter().any(|o| o.name == a.name));
            out.attrs.extend(own.attrs.iter().cloned());
            out.blocks.extend(own.blocks.iter().cloned());
            Some(out)
        }
    }
}

impl Validator<'_> {
    /// Validate `r`'s provisioners; `resource_errors` says whether the resource's own checks
    /// found errors (then only its first provisioner is checked, as in Terraform).
    pub(super) fn provisioners(&mut self, r: &ResourceDecl, resource_errors: bool) {
        let mut errors = resource_errors;
        for p in &r.provisioners {
            let start = self.out.len();
            let header = p.span;
            if let Some(schema) = provisioner_schema(&p.kind) {
                self.body_schema(&p.body, &schema, header);
            }
            self.provisioner_config(p);
            if let Some(conn) = merged_connection(r.connection.as_ref(), p.connection.as_ref()) {
                self.body_schema(&conn, &connection_schema(), header);
            }
            errors |= self.out[start..].iter().any(super::Finding::is_error);
            if errors {
                return;
            }
        }
    }

    /// The provisioners' own checks (their `ValidateProvisionerConfig`), reported as Terraform
    /// reports them: without a source range.
    fn provisioner_config(&mut self, p: &Provisioner) {
        let set = |name: &str| p.body.attrs.iter().any(|a| a.name == name);
        let error = match p.kind.as_str() {
            "file" if set("source") && set("content") => Some(Diagnostic::error(
                "invalid-provisioner-config",
                "Cannot set both 'source' and 'content'",
            )),
            "file" if !set("source") && !set("content") => Some(Diagnostic::error(
                "invalid-provisioner-config",
                "Must provide one of 'source' or 'content'",
            )),
            "remote-exec"
                if ["inline", "script", "scripts"]
                    .iter()
                    .filter(|n| set(n))
                    .count()
                    != 1 =>
            {
                Some(
                    Diagnostic::error(
                        "invalid-provisioner-config",
                        "Invalid remote-exec provisioner configuration",
                    )
                    .with_detail("Only one of \"inline\", \"script\", or \"scripts\" must be set"),
                )
            }
            _ => None,
        };
        self.out
            .extend(error.map(|d| super::Finding::Pending(crate::Pending::at(d, None))));
    }
}

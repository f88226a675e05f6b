//! The flags and `-help` texts of the commands that read or edit what ferro keeps rather than
//! the infrastructure: show, output, get, taint, untaint, version, providers, force-unlock,
//! workspace, lsp.

use crate::args::Spec;

pub(crate) const SHOW: Spec = Spec {
    bools: &["json"],
    values: &["state"],
    help: "Usage: ferro [global options] show [options] [FILE]

  Prints the state of the selected workspace, or, given FILE, the plan that
  \"ferro plan\" saved in it, in the same form plan and apply print them.

Options:

  -json          Print the state or plan as JSON (the format of
                 \"terraform show -json\") for programs to read.

  -no-color      Print without terminal colours.

  -state=FILE    Read this local state file instead of the selected
                 workspace's state.
",
};

pub(crate) const OUTPUT: Spec = Spec {
    bools: &["json", "raw"],
    values: &["state"],
    help: "Usage: ferro [global options] output [options] [NAME]

  Prints the root module's output values as the state recorded them at the
  last apply or refresh: all of them, or only NAME.

Options:

  -json          Print the values as JSON; sensitive values are shown too.

  -no-color      Print without terminal colours.

  -raw           Print NAME's value alone, without quotes or a trailing
                 newline, for scripts. Only strings, numbers and booleans.

  -state=FILE    Read this local state file instead of the selected
                 workspace's state.
",
};

pub(crate) const GET: Spec = Spec {
    bools: &["update"],
    values: &[],
    help: "Usage: ferro [global options] get [options]

  Installs the modules the configuration calls into .terraform/modules, as
  \"ferro init\" does, without the other steps of init. Modules installed
  before are kept.

Options:

  -no-color   Print without terminal colours.

  -update     Install every module again, at the newest version its
              constraint allows.
",
};

pub(crate) const TAINT: Spec = Spec {
    bools: &["allow-missing", "lock", "ignore-remote-version"],
    values: &["state", "state-out", "backup", "lock-timeout"],
    help: "Usage: ferro [global options] taint [options] <address>

  Marks a resource instance in the state as tainted, so the next plan
  replaces it: destroys the object and creates a new one. Nothing else
  changes until that plan is applied.

  Applying with the replace planning option replaces an object in one step
  and shows the plan first.

Options:

  -allow-missing          Succeed, with a warning, when the state has no such
                          instance.

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=true              Hold the state lock. -lock=false is risky when
                          others may use the same workspace.

  -lock-timeout=0s        How long to keep trying to take the state lock.

  -no-color               Print without terminal colours.

  -state=FILE             Use this local state file instead of the selected
                          workspace's state.

  -state-out=FILE         Accepted for compatibility; the state is written
                          back where it was read.
",
};

pub(crate) const UNTAINT: Spec = Spec {
    bools: TAINT.bools,
    values: TAINT.values,
    help: "Usage: ferro [global options] untaint [options] <address>

  Clears the tainted mark of a resource instance in the state, so the next
  plan keeps the object instead of replacing it.

Options:

  -allow-missing          Succeed, with a warning, when the state has no such
                          instance.

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=true              Hold the state lock. -lock=false is risky when
                          others may use the same workspace.

  -lock-timeout=0s        How long to keep trying to take the state lock.

  -no-color               Print without terminal colours.

  -state=FILE             Use this local state file instead of the selected
                          workspace's state.

  -state-out=FILE         Accepted for compatibility; the state is written
                          back where it was read.
",
};

pub(crate) const VERSION: Spec = Spec {
    bools: &["json"],
    values: &[],
    help: "Usage: ferro [global options] version [options]

  Prints ferro's version, the Terraform release it is compatible with, the
  platform, and the provider versions the lock file selected. The global
  options -v and -version do the same.

Options:

  -json       Print the same facts as a JSON object, with the members of
              \"terraform version -json\" and ferro's own version.
",
};

pub(crate) const PROVIDERS: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] providers [subcommand]

  Prints the providers the configuration requires, module by module with
  their version constraints, and the providers the state refers to.

Subcommands:
    schema    Print the schemas of the providers the configuration uses

  (ferro has no \"providers lock\" or \"providers mirror\": they need a
  provider registry.)
",
};

pub(crate) const PROVIDERS_SCHEMA: Spec = Spec {
    bools: &["json"],
    values: &[],
    help: "Usage: ferro [global options] providers schema -json

  Prints the schemas of the providers the configuration and state use, as
  the JSON document \"terraform providers schema -json\" prints, for
  documentation generators and editors. Run \"ferro init\" first.

Options:

  -json    Print JSON. Required: there is no other format.
",
};

pub(crate) const FORCE_UNLOCK: Spec = Spec {
    bools: &["force"],
    values: &[],
    help: "Usage: ferro [global options] force-unlock LOCK_ID

  Manually unlock the state for the defined configuration.

  This will not modify your infrastructure. This command removes the lock on the
  state for the current workspace. The behavior of this lock is dependent
  on the backend being used. Local state files cannot be unlocked by another
  process.

Options:

  -force                 Don't ask for input for unlock confirmation.
",
};

pub(crate) const WORKSPACE: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] workspace

  new, list, show, select and delete ferro workspaces.

Subcommands:
    delete    Delete a workspace
    list      List the workspaces
    new       Create a workspace and select it
    select    Select a workspace
    show      Print the name of the selected workspace
",
};

pub(crate) const WORKSPACE_LIST: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] workspace list

  Lists the workspaces of the configured backend, marking the selected one
  with an asterisk.
",
};

pub(crate) const WORKSPACE_SHOW: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] workspace show

  Prints the name of the selected workspace.
",
};

pub(crate) const WORKSPACE_NEW: Spec = Spec {
    bools: &["lock"],
    values: &["lock-timeout", "state"],
    help: "Usage: ferro [global options] workspace new [OPTIONS] NAME

  Creates the workspace NAME, with an empty state unless -state gives one,
  and selects it.

Options:

  -lock=true          Hold the new workspace's state lock while creating it.
                      -lock=false is risky when others may use it.

  -lock-timeout=0s    How long to keep trying to take the state lock.

  -state=FILE         Start the new workspace with a copy of this state file.
",
};

pub(crate) const WORKSPACE_SELECT: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] workspace select NAME

  Selects the existing workspace NAME: the commands that follow use its
  state.
",
};

pub(crate) const WORKSPACE_DELETE: Spec = Spec {
    bools: &["force", "lock"],
    values: &["lock-timeout"],
    help: "Usage: ferro [global options] workspace delete [OPTIONS] NAME

  Deletes the workspace NAME and its state. Neither the selected workspace
  nor the default one can be deleted. A workspace whose state still tracks
  objects is deleted only with -force.

Options:

  -force              Delete the workspace even if its state tracks objects;
                      those objects are then no longer managed by ferro.

  -lock=true          Hold the workspace's state lock while deleting it.
                      -lock=false is risky when others may use it.

  -lock-timeout=0s    How long to keep trying to take the state lock.
",
};

pub(crate) const LSP: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] lsp

  Runs ferro's language server, speaking the Language Server Protocol on
  standard input and output, for editors: diagnostics, hover, completion,
  go to definition, references, rename and formatting. The editor starts it;
  any other arguments (such as --stdio, which some clients add) are ignored.
",
};

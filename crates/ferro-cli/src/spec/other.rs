//! The flags and `-help` texts of the commands that read or edit what ferro keeps rather than
//! the infrastructure: show, output, get, taint, untaint, version, providers, force-unlock,
//! workspace, lsp.

use crate::args::Spec;

pub(crate) const SHOW: Spec = Spec {
    bools: &["json"],
    values: &["state", "var", "var-file"],
    help: "Usage: ferro [global options] show [options] [FILE]

  Prints the state of the selected workspace, or, given FILE, the plan that
  \"ferro plan\" saved in it, in the same form plan and apply print them.

Options:

  -json          Print the state or plan as JSON (the format of
                 \"terraform show -json\") for programs to read.

  -no-color      Print without terminal colours.

  -state=FILE    Read this local state file instead of the selected
                 workspace's state.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const OUTPUT: Spec = Spec {
    bools: &["json", "raw"],
    values: &["state", "var", "var-file"],
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

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const GET: Spec = Spec {
    bools: &["update"],
    values: &["test-directory", "var", "var-file"],
    help: "Usage: ferro [global options] get [options]

  Installs the modules the configuration calls into .terraform/modules, as
  \"ferro init\" does, without the other steps of init. Modules installed
  before are kept.

Options:

  -no-color              Print without terminal colours.

  -test-directory=tests  The directory of test files whose run blocks name
                         modules to install, besides the working directory.

  -update                Install every module again, at the newest version
                         its constraint allows.

  -var 'NAME=VALUE'      Set the root module's input variable NAME, for the
                         module sources that use variables. May be given
                         more than once.

  -var-file=FILE         Read input variable values from FILE, after
                         terraform.tfvars and *.auto.tfvars. May be given
                         more than once.
",
};

pub(crate) const TAINT: Spec = Spec {
    bools: &["allow-missing", "lock", "ignore-remote-version"],
    values: &[
        "state",
        "state-out",
        "backup",
        "lock-timeout",
        "var",
        "var-file",
    ],
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

  -state-out=FILE         Write the changed state to this local file
                          instead, leaving the state read as it was.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
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

  -state-out=FILE         Write the changed state to this local file
                          instead, leaving the state read as it was.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const VERSION: Spec = Spec {
    bools: &["json"],
    values: &[],
    help: "Usage: ferro [global options] version [options]

  Tells which ferro this is: its own version, the Terraform release it is
  compatible with, the operating system and architecture, and the version
  of each provider the dependency lock file selected. The global options
  -v and -version print the same.

Options:

  -json       Print those facts as one JSON object: the members of
              \"terraform version -json\" plus ferro's own version.
",
};

pub(crate) const PROVIDERS: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] providers [subcommand]

  Prints the providers the configuration requires, module by module with
  their version constraints, and the providers the state refers to.

Subcommands:
    lock      Write provider dependency locks into the dependency lock file
    mirror    Save local copies of all required provider plugins
    schema    Print provider schemas as JSON
",
};

pub(crate) const PROVIDERS_MIRROR: Spec = Spec {
    bools: &[],
    values: &["platform"],
    help: "Usage: ferro [global options] providers mirror [options] <target-dir>

  Downloads, from their origin registries, the newest version meeting the
  configuration's constraints of every provider it requires, checks each
  package as \"ferro init\" does, and saves them in <target-dir> in the
  layout of a filesystem mirror, with the index files of the network
  mirror protocol, so the directory can serve as either.

Options:

  -platform=os_arch  Download the packages for this platform (linux_amd64,
                     darwin_arm64, ...). May be given more than once;
                     without it, the platform ferro runs on.
",
};

pub(crate) const PROVIDERS_LOCK: Spec = Spec {
    bools: &[],
    values: &["platform", "fs-mirror", "net-mirror"],
    help: "Usage: ferro [global options] providers lock [options] [providers...]

  Asks the origin registry of each provider the configuration requires
  (or of just the providers named) for its packages, checks them as
  \"ferro init\" does, and records their checksums in .terraform.lock.hcl,
  keeping the versions the lock file already selects. Nothing is
  installed.

Options:

  -fs-mirror=dir     Read the packages from this filesystem mirror
                     directory instead of the origin registries.

  -net-mirror=url    Read the packages from this network mirror (an
                     https: URL) instead of the origin registries.

  -platform=os_arch  Record the checksums of the packages for this
                     platform (linux_amd64, darwin_arm64, ...). May be
                     given more than once; without it, the platform
                     ferro runs on.
",
};

pub(crate) const PROVIDERS_SCHEMA: Spec = Spec {
    bools: &["json"],
    values: &[],
    help: "Usage: ferro [global options] providers schema -json

  Prints, as one JSON document, every resource type, data source and
  provider configuration block of the providers the configuration and
  state use, with their attributes and types, in the format of
  \"terraform providers schema -json\", for documentation generators and
  editors. Run \"ferro init\" first so the providers are installed.

Options:

  -json    Print JSON. Required: there is no other format.
",
};

pub(crate) const FORCE_UNLOCK: Spec = Spec {
    bools: &["force"],
    values: &["var", "var-file"],
    help: "Usage: ferro [global options] force-unlock LOCK_ID

  Releases a lock on the selected workspace's state that a ferro run left
  behind, for instance after it was killed. LOCK_ID is the ID printed
  under \"Lock Info\" by the command that could not take the lock. Only the
  lock goes away: neither the state nor any infrastructure is changed.
  Make sure no run still holds the lock before releasing it.

  What releasing means depends on where the state is. A local state file
  is locked by the process using it, and only that process can let go:
  force-unlock can only clear the record of a lock whose process has
  ended. On the pg backend, the database session holding the lock is
  ended.

Options:

  -force                 Release the lock without asking for confirmation.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const WORKSPACE: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] workspace

  Workspaces let one configuration keep several separate states, say one
  for testing and one for production. Every working directory starts with
  the workspace \"default\"; the subcommands below add more, switch between
  them and remove them.

Subcommands:
    new       Make a workspace and switch to it
    select    Switch to another existing workspace
    show      Print which workspace is selected
    list      Print the names of all workspaces
    delete    Remove a workspace together with its state
",
};

pub(crate) const WORKSPACE_LIST: Spec = Spec {
    bools: &[],
    values: &["var", "var-file"],
    help: "Usage: ferro [global options] workspace list

  Prints the name of every workspace the configured backend holds, one a
  line, starting with \"default\"; the selected one is marked with an
  asterisk.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const WORKSPACE_SHOW: Spec = Spec {
    bools: &[],
    values: &["var", "var-file"],
    help: "Usage: ferro [global options] workspace show

  Prints the name of the workspace the other commands use: the one last
  chosen with \"workspace select\" or \"workspace new\", \"default\" if none
  was, or the TF_WORKSPACE environment variable when it is set.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const WORKSPACE_NEW: Spec = Spec {
    bools: &["lock"],
    values: &["lock-timeout", "state", "var", "var-file"],
    help: "Usage: ferro [global options] workspace new [OPTIONS] NAME

  Adds the workspace NAME to the configured backend and switches to it.
  Its state starts out empty, or as a copy of the file given with -state.
  The name may hold only characters that are safe in a URL, and no slash.

Options:

  -lock=true          Hold the new workspace's state lock while creating it.
                      -lock=false is risky when others may use it.

  -lock-timeout=0s    How long to keep trying to take the state lock.

  -state=FILE         Start the new workspace with a copy of this state file.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const WORKSPACE_SELECT: Spec = Spec {
    bools: &[],
    values: &["var", "var-file"],
    help: "Usage: ferro [global options] workspace select NAME

  Switches this working directory to the workspace NAME, which must exist
  already; plan, apply and the other commands then read and write its
  state. The choice is kept in .terraform/environment.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const WORKSPACE_DELETE: Spec = Spec {
    bools: &["force", "lock"],
    values: &["lock-timeout", "var", "var-file"],
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

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
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

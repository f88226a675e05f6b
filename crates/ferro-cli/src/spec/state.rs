//! The flags and `-help` texts of `ferro state` and its subcommands. Each subcommand accepts
//! its own flags; the usage texts are also what the subcommands print on a wrong number of
//! arguments.

use crate::args::Spec;

pub(crate) const STATE: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] state <subcommand> [options] [args]

  Reads and edits the state directly, for the jobs plan and apply do not
  do: renaming and moving tracked objects, forgetting them, copying the
  whole state out or in, and pointing resources at another provider. Each
  subcommand has a help text of its own.

Subcommands:
    list                Print the addresses of the tracked instances
    mv                  Give tracked objects a new address
    pull                Print the stored state as JSON
    push                Overwrite the stored state with a state file
    replace-provider    Switch resources from one provider to another
    rm                  Stop tracking instances, leaving the objects alone
    show                Print the attributes of one instance
",
};

pub(crate) const LIST: Spec = Spec {
    bools: &[],
    values: &["state", "id", "var", "var-file"],
    help: "Usage: ferro [global options] state list [options] [ADDRESS...]

  Lists the resource instances the state tracks, one address a line. Given
  addresses, only the instances they contain: a resource address lists its
  instances, a module address every instance in that module and below it.

Options:

  -id=ID              List only the instances whose object has the id ID.

  -state=FILE         Read this local state file instead of the selected
                      workspace's state.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const SHOW: Spec = Spec {
    bools: &[],
    values: &["state", "var", "var-file"],
    help: "Usage: ferro [global options] state show [options] ADDRESS

  Prints what the state recorded about one resource instance, attribute by
  attribute, laid out as plan and apply print resources. ADDRESS has to
  pick out a single instance, for example aws_instance.web or
  aws_instance.web[0]; \"ferro state list\" prints every address there is.

Options:

  -state=FILE    Read this local state file instead of the selected
                 workspace's state (terraform.tfstate in the default
                 workspace).

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const MV: Spec = Spec {
    bools: &["lock", "dry-run", "ignore-remote-version"],
    values: &[
        "state",
        "state-out",
        "backup",
        "lock-timeout",
        "var",
        "var-file",
    ],
    help: "Usage: ferro [global options] state mv [options] SOURCE DESTINATION

  Gives objects the state tracks a new address, leaving the real objects
  as they are: rename a resource, move resources into or out of a module,
  or rename a whole module. SOURCE and DESTINATION are both modules, both
  resources or both resource instances (a resource may also go into a
  module under its own name). Resource types must match, and nothing may
  be tracked at DESTINATION yet.

  With -state-out the objects move to another local state file (created
  when it does not exist) instead. A local state file's previous version
  is kept as a backup, which cannot be turned off.

Options:

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -dry-run                Print the move that would be made, and make none.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=false             Skip the state lock. Risky when others may use
                          the same workspace at the same time.

  -lock-timeout=0s        How long to keep trying to take the state lock.

  -state=FILE             Edit this local state file instead of the selected
                          workspace's state.

  -state-out=FILE         Move the objects into this local state file (a new
                          one when it does not exist) instead of within the
                          state read.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const RM: Spec = Spec {
    bools: &["lock", "dry-run", "ignore-remote-version"],
    values: &["state", "backup", "lock-timeout", "var", "var-file"],
    help: "Usage: ferro [global options] state rm [options] ADDRESS...

  Makes ferro stop tracking objects without destroying them: the instances
  at the given addresses are dropped from the state and the real objects
  stay where they are, no longer managed. \"ferro state list\" prints the
  addresses there are.

  Each ADDRESS may name one instance, a whole resource (every instance of
  a resource with count or for_each goes), or a module (every instance in
  it and in the modules below it goes).

Options:

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -dry-run                Print the instances that would be dropped, and
                          drop none.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=false             Skip the state lock. Risky when others may use
                          the same workspace at the same time.

  -lock-timeout=0s        How long to keep trying to take the state lock.

  -state=FILE             Edit this local state file instead of the selected
                          workspace's state.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const PULL: Spec = Spec {
    bools: &[],
    values: &["var", "var-file"],
    help: "Usage: ferro [global options] state pull

  Prints the selected workspace's state, as stored, on standard output, in
  the JSON format of Terraform's state files. Nothing is printed when there
  is no state.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const PUSH: Spec = Spec {
    bools: &["lock", "force", "ignore-remote-version"],
    values: &["lock-timeout", "var", "var-file"],
    help: "Usage: ferro [global options] state push [options] PATH

  Writes the state file at PATH over the selected workspace's stored
  state, on whichever backend holds it, local files included. With \"-\" as
  PATH the state is read from standard input, all of it, before anything
  is written.

  As a safeguard, a state from a different lineage, or with a lower serial
  than the stored one, is refused unless -force is given.

Options:

  -force              Overwrite even when the lineages differ or the
                      stored serial is the higher one.

  -ignore-remote-version
                      Accepted for compatibility; ferro checks no remote
                      version.

  -lock=false         Skip the state lock. Risky when others may use the
                      same workspace at the same time.

  -lock-timeout=0s    How long to keep trying to take the state lock.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const REPLACE_PROVIDER: Spec = Spec {
    bools: &["lock", "auto-approve", "ignore-remote-version"],
    values: &["state", "backup", "lock-timeout", "var", "var-file"],
    help: "Usage: ferro [global options] state replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN

  Switches every resource in the state that belongs to the provider
  FROM_PROVIDER_FQN over to TO_PROVIDER_FQN, for instance after a provider
  moved to another namespace or registry. Both are provider source
  addresses, such as registry.terraform.io/hashicorp/aws or
  hashicorp/aws. The resources affected are listed and approval is asked
  for before the state is written.

Options:

  -auto-approve           Replace without asking for approval first.

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=false             Skip the state lock. Risky when others may use
                          the same workspace at the same time.

  -lock-timeout=0s        How long to keep trying to take the state lock.

  -state=FILE             Edit this local state file instead of the selected
                          workspace's state.

  -var 'NAME=VALUE'   Set the root module's input variable NAME, for a
                      backend configuration that uses variables (OpenTofu's
                      early evaluation). May be given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars.
",
};

/// The spec of a `state` subcommand, None for a name that is not one.
pub(crate) fn subcommand(name: &str) -> Option<&'static Spec> {
    Some(match name {
        "list" => &LIST,
        "show" => &SHOW,
        "mv" => &MV,
        "rm" => &RM,
        "pull" => &PULL,
        "push" => &PUSH,
        "replace-provider" => &REPLACE_PROVIDER,
        _ => return None,
    })
}

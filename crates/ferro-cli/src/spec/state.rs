//! The flags and `-help` texts of `ferro state` and its subcommands. Each subcommand accepts
//! its own flags; the usage texts are also what the subcommands print on a wrong number of
//! arguments.

use crate::args::Spec;

pub(crate) const STATE: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] state <subcommand> [options] [args]

  This command has subcommands for advanced state management.

Subcommands:
    list                List resources in the state
    mv                  Move an item in the state
    pull                Pull current state and output to stdout
    push                Update remote state from a local state file
    replace-provider    Replace provider in the state
    rm                  Remove instances from the state
    show                Show a resource in the state
",
};

pub(crate) const LIST: Spec = Spec {
    bools: &[],
    values: &["state", "id"],
    help: "Usage: ferro [global options] state list [options] [ADDRESS...]

  Lists the resource instances the state tracks, one address a line. Given
  addresses, only the instances they contain: a resource address lists its
  instances, a module address every instance in that module and below it.

Options:

  -id=ID              List only the instances whose object has the id ID.

  -state=FILE         Read this local state file instead of the selected
                      workspace's state.
",
};

pub(crate) const SHOW: Spec = Spec {
    bools: &[],
    values: &["state"],
    help: "Usage: ferro [global options] state show [options] ADDRESS

  Shows the attributes of a resource in the ferro state.

  This command shows the attributes of a single resource in the ferro
  state. The address argument must be used to specify a single resource.
  You can view the list of available resources with \"ferro state list\".

Options:

  -state=statefile    Path to a ferro state file to use to look
                      up ferro-managed resources. By default it will
                      use the state \"terraform.tfstate\" if it exists.
",
};

pub(crate) const MV: Spec = Spec {
    bools: &["lock", "dry-run", "ignore-remote-version"],
    values: &["state", "state-out", "backup", "lock-timeout"],
    help: "Usage: ferro [global options] state mv [options] SOURCE DESTINATION

 This command will move an item matched by the address given to the
 destination address.

 This can be used for simple resource renaming, moving items to and from
 a module, moving entire modules, and more.

 This command will output a backup copy of the state prior to saving any
 changes. The backup cannot be disabled. Due to the destructive nature
 of this command, backups are required.

Options:

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -dry-run                If set, prints out what would've been moved but doesn't
                          actually move anything.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -state=FILE             Edit this local state file instead of the selected
                          workspace's state.

  -state-out=FILE         Accepted for compatibility; the state is written
                          back where it was read.

",
};

pub(crate) const RM: Spec = Spec {
    bools: &["lock", "dry-run", "ignore-remote-version"],
    values: &["state", "backup", "lock-timeout"],
    help: "Usage: ferro [global options] state rm [options] ADDRESS...

  Remove one or more items from the ferro state, causing ferro to
  \"forget\" those items without first destroying them in the remote system.

  This command removes one or more resource instances from the ferro state
  based on the addresses given. You can view and list the available instances
  with \"ferro state list\".

  If you give the address of an entire module then all of the instances in
  that module and any of its child modules will be removed from the state.

  If you give the address of a resource that has \"count\" or \"for_each\" set,
  all of the instances of that resource will be removed from the state.

Options:

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -dry-run                If set, prints out what would've been removed but
                          doesn't actually remove anything.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -state=PATH             Path to the state file to update. Defaults to the
                          current workspace state.
",
};

pub(crate) const PULL: Spec = Spec {
    bools: &[],
    values: &[],
    help: "Usage: ferro [global options] state pull

  Prints the selected workspace's state, as stored, on standard output, in
  the JSON format of Terraform's state files. Nothing is printed when there
  is no state.
",
};

pub(crate) const PUSH: Spec = Spec {
    bools: &["lock", "force", "ignore-remote-version"],
    values: &["lock-timeout"],
    help: "Usage: ferro [global options] state push [options] PATH

  Update remote state from a local state file at PATH.

Options:

  -force              Write the state even if lineages don't match or the
                      remote serial is higher.

  -ignore-remote-version
                      Accepted for compatibility; ferro checks no remote
                      version.

  -lock=false         Don't hold a state lock during the operation. This is
                      dangerous if others might concurrently run commands
                      against the same workspace.

  -lock-timeout=0s    Duration to retry a state lock.

",
};

pub(crate) const REPLACE_PROVIDER: Spec = Spec {
    bools: &["lock", "auto-approve", "ignore-remote-version"],
    values: &["state", "backup", "lock-timeout"],
    help: "Usage: ferro [global options] state replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN

  Replace provider for resources in the ferro state.

Options:

  -auto-approve           Replace without asking for approval first.

  -backup=FILE            Accepted for compatibility; a local state file's
                          previous version is always kept beside it, with
                          .backup added to its name.

  -ignore-remote-version  Accepted for compatibility; ferro checks no remote
                          version.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -state=FILE             Edit this local state file instead of the selected
                          workspace's state.

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

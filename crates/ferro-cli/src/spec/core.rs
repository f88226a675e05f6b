//! The flags and `-help` texts of the commands that read the configuration and change
//! infrastructure: init, validate, plan, apply, destroy, refresh, import, console.

use crate::args::Spec;

pub(crate) const INIT: Spec = Spec {
    bools: &[
        "upgrade",
        "input",
        "backend",
        "get",
        "migrate-state",
        "force-copy",
        "reconfigure",
        // Terraform's init locks the state only while migrating it, and ferro's migration
        // takes no lock; the flags are accepted, as later Terraform versions accept them (1.0.3
        // does not), for the tools that pass them to every command.
        "lock",
    ],
    values: &[
        "backend-config",
        "lock-timeout",
        "lockfile",
        "test-directory",
        "var",
        "var-file",
    ],
    help: "Usage: ferro [global options] init [options]

  Gets the working directory ready for the other commands: installs the
  modules the configuration calls, sets up the backend that holds the state,
  installs the providers the configuration and the state need, and records
  the providers chosen in .terraform.lock.hcl.

  Running it again is safe: what is already in place is kept.

Options:

  -backend=true           Set up the backend. With -backend=false the backend
                          step is skipped and the one set up before is kept.

  -backend-config=K=V     Set the backend block's argument K to V, over what
                          the block says. May be given more than once. (ferro
                          takes KEY=VALUE pairs only, not files.)

  -force-copy             When the state moves to another backend, copy it
                          without asking first.

  -get=true               Install the modules the configuration calls. With
                          -get=false the modules installed before are used.

  -input=true             Ask questions on the terminal when an answer is
                          needed. With -input=false, a needed answer is an error.

  -lock=true              Accepted for compatibility; init takes no state lock.

  -lock-timeout=0s        Accepted for compatibility; init takes no state lock.

  -lockfile=readonly      Keep .terraform.lock.hcl as it is: a provider
                          selection it does not record is an error.

  -migrate-state          Move the existing state to a changed backend.

  -reconfigure            Set the backend up from the configuration, ignoring
                          what was set up before, without moving any state.

  -test-directory=tests   The directory of test files whose run blocks name
                          modules to install, besides the working directory.

  -upgrade=false          Install the newest module and provider versions the
                          version constraints allow, rather than keeping the
                          ones installed or locked before.

  -var 'NAME=VALUE'       Set the root module's input variable NAME, for the
                          module sources and the backend arguments that use
                          variables (OpenTofu's early evaluation). May be
                          given more than once.

  -var-file=FILE          Read input variable values from FILE, after
                          terraform.tfvars and *.auto.tfvars. May be given
                          more than once.
",
};

pub(crate) const VALIDATE: Spec = Spec {
    bools: &["json"],
    values: &["var", "var-file"],
    help: "Usage: ferro [global options] validate [options] [DIR]

  Checks the configuration in DIR (by default the working directory) for
  errors: syntax, references, types, and arguments against the providers'
  schemas. It reads no state and calls no provider API, so it needs no
  credentials; run \"ferro init\" first so the providers are there (they
  are looked for in the working directory). Variables' values are read only
  for the module sources that use them (OpenTofu's early evaluation).

Options:

  -json        Print the result as one JSON document (the format of
               \"terraform validate -json\") for programs to read.

  -no-color    Print without terminal colours.

  -var 'NAME=VALUE'
               Set the root module's input variable NAME. May be given
               more than once.

  -var-file=FILE
               Read input variable values from FILE, after
               terraform.tfvars and *.auto.tfvars.
",
};

pub(crate) const PLAN: Spec = Spec {
    bools: &[
        "json",
        "detailed-exitcode",
        "destroy",
        "refresh",
        "input",
        "lock",
        "compact-warnings",
        "refresh-only",
        "minimal-refresh",
        "allow-deferral",
    ],
    values: &[
        "out",
        "var",
        "var-file",
        "replace",
        "target",
        "target-file",
        "exclude",
        "exclude-file",
        "parallelism",
        "state",
        "lock-timeout",
        "generate-config-out",
    ],
    help: "Usage: ferro [global options] plan [options]

  Works out what has to change for the infrastructure to match the
  configuration, and shows it. First every object in the state is read back
  from its provider, so changes made outside ferro are seen; then the
  configuration is compared with what was read.

  Nothing is changed. Save the plan with -out and give it to \"ferro apply\"
  to carry out exactly those changes.

Planning modes (the default plans the changes the configuration asks for):

  -destroy            Plan to destroy every object the state tracks.

  -refresh-only       Plan only to bring the state up to date with the
                      objects as they are now, changing no infrastructure.

Planning options:

  -allow-deferral     Plan what can be planned and defer the rest to a later
                      plan instead of failing: resources whose count or
                      for_each (or module calls whose count or for_each)
                      or provider configuration is not known yet, what
                      depends on them, and what providers defer. The plan
                      lists the deferred changes and why each waits.

  -exclude=ADDRESS    Leave out the given resource or module (and what
                      depends on it). May be given more than once. A ferro
                      extension; it cannot be combined with -target.

  -exclude-file=FILE  Like -exclude, for each address in FILE: one a line,
                      lines starting with # ignored (OpenTofu 1.10).

  -generate-config-out=FILE
                      Write configuration for the targets of import blocks
                      that have none to FILE, a new file, and plan with it.

  -minimal-refresh    Read back from their providers only the objects whose
                      configuration changed; plan the others against the
                      state as recorded (changes made outside ferro to
                      them are not seen). The plan says how many it left.

  -refresh=false      Do not read objects back from their providers first;
                      plan against the state as it was recorded.

  -replace=ADDRESS    Plan to replace the given resource instance even if
                      nothing about it changed. May be given more than once.

  -target=ADDRESS     Plan only for the given resource or module (and what
                      it depends on). May be given more than once. Meant for
                      recovering from mistakes, not for routine use.

  -target-file=FILE   Like -target, for each address in FILE: one a line,
                      lines starting with # ignored (OpenTofu 1.10).

  -var 'NAME=VALUE'   Set the root module's input variable NAME. May be
                      given more than once.

  -var-file=FILE      Read input variable values from FILE, after
                      terraform.tfvars and *.auto.tfvars. May be given more
                      than once.

General options:

  -compact-warnings   Accepted for compatibility; ferro prints warnings in
                      full.

  -detailed-exitcode  Exit with 0 when there are no changes, 1 on an error
                      and 2 when the plan has changes (or deferred ones).

  -input=true         Ask on the terminal for required variables that have
                      no value.

  -json               Print the machine-readable UI: one JSON message a
                      line. Implies -input=false.

  -lock=true          Hold the state lock while planning. -lock=false is
                      risky when others may use the same workspace.

  -lock-timeout=0s    How long to keep trying to take the state lock.

  -no-color           Print without terminal colours.

  -out=FILE           Save the plan to FILE, for \"ferro apply FILE\".

  -parallelism=10     How many provider operations run at a time.

  -state=FILE         Read this local state file instead of the selected
                      workspace's state.
",
};

pub(crate) const APPLY: Spec = Spec {
    bools: &[
        "json",
        "destroy",
        "refresh",
        "input",
        "lock",
        "compact-warnings",
        "auto-approve",
        "refresh-only",
        "minimal-refresh",
        "allow-deferral",
        "converge",
    ],
    values: &[
        "var",
        "var-file",
        "replace",
        "target",
        "target-file",
        "exclude",
        "exclude-file",
        "parallelism",
        "state",
        "lock-timeout",
    ],
    help: "Usage: ferro [global options] apply [options] [PLAN]

  Makes the infrastructure match the configuration.

  Without PLAN, apply first plans as \"ferro plan\" does, shows the plan and
  asks for approval before changing anything. With PLAN, a plan file that
  \"ferro plan\" saved, it carries out exactly that plan without asking; the
  plan is refused if the state changed since it was made.

Options:

  -auto-approve          Apply without asking for approval.

  -compact-warnings      Accepted for compatibility; ferro prints warnings
                         in full.

  -input=true            Ask on the terminal for required variables that
                         have no value.

  -json                  Print the machine-readable UI: one JSON message a
                         line. Needs PLAN or -auto-approve.

  -lock=true             Hold the state lock while applying. -lock=false is
                         risky when others may use the same workspace.

  -lock-timeout=0s       How long to keep trying to take the state lock.

  -no-color              Print without terminal colours.

  -parallelism=10        How many provider operations run at a time.

  -state=FILE            Use this local state file instead of the selected
                         workspace's state.

  Without PLAN, the planning options of \"ferro plan\" are accepted too:

  -allow-deferral        Apply what can be planned; defer the rest, as
                         \"ferro plan -allow-deferral\" does.

  -converge              With -allow-deferral: plan and apply again, round
                         after round, until nothing is deferred or a round
                         has nothing to apply. A ferro extension.

  -destroy               Plan to destroy every object (as \"ferro destroy\").

  -exclude=ADDRESS       Leave out the given resource or module.

  -exclude-file=FILE     Leave out each resource or module FILE lists.

  -minimal-refresh       Read back only the objects whose configuration
                         changed, as \"ferro plan\" does with it.

  -refresh=false         Do not read objects back from their providers first.

  -refresh-only          Only bring the state up to date with the objects.

  -replace=ADDRESS       Replace the given resource instance.

  -target=ADDRESS        Apply only for the given resource or module.

  -target-file=FILE      Apply only for the resources and modules FILE lists.

  -var 'NAME=VALUE'      Set a root module input variable.

  -var-file=FILE         Read input variable values from FILE.
",
};

pub(crate) const DESTROY: Spec = Spec {
    bools: &[
        "json",
        "refresh",
        "input",
        "lock",
        "compact-warnings",
        "auto-approve",
    ],
    values: &[
        "var",
        "var-file",
        "target",
        "target-file",
        "exclude",
        "exclude-file",
        "parallelism",
        "state",
        "lock-timeout",
    ],
    help: "Usage: ferro [global options] destroy [options]

  Destroys every object the state tracks, after showing the plan and asking
  for approval. The same as applying in the destroy planning mode.

Options:

  -auto-approve          Destroy without asking for approval.

  -compact-warnings      Accepted for compatibility; ferro prints warnings
                         in full.

  -exclude=ADDRESS       Keep the given resource or module (and what it
                         needs). A ferro extension.

  -exclude-file=FILE     Keep each resource or module FILE lists: one
                         address a line, lines starting with # ignored.

  -input=true            Ask on the terminal for required variables that
                         have no value.

  -json                  Print the machine-readable UI: one JSON message a
                         line. Needs -auto-approve.

  -lock=true             Hold the state lock. -lock=false is risky when
                         others may use the same workspace.

  -lock-timeout=0s       How long to keep trying to take the state lock.

  -no-color              Print without terminal colours.

  -parallelism=10        How many provider operations run at a time.

  -refresh=false         Do not read objects back from their providers first.

  -state=FILE            Use this local state file instead of the selected
                         workspace's state.

  -target=ADDRESS        Destroy only the given resource or module (and what
                         depends on it). May be given more than once.

  -target-file=FILE      Destroy only the resources and modules FILE lists:
                         one address a line, lines starting with # ignored.

  -var 'NAME=VALUE'      Set a root module input variable.

  -var-file=FILE         Read input variable values from FILE.
",
};

pub(crate) const REFRESH: Spec = Spec {
    bools: &["json", "input", "lock", "compact-warnings"],
    values: &[
        "var",
        "var-file",
        "target",
        "target-file",
        "exclude",
        "exclude-file",
        "parallelism",
        "state",
        "lock-timeout",
    ],
    help: "Usage: ferro [global options] refresh [options]

  Reads every object the state tracks back from its provider and records
  what it finds, and the current output values, in the state. No
  infrastructure is changed.

  Applying with the refresh-only planning mode does the same but shows the
  differences and asks first.

Options:

  -compact-warnings   Accepted for compatibility; ferro prints warnings in
                      full.

  -exclude=ADDRESS    Leave out the given resource or module. A ferro
                      extension.

  -exclude-file=FILE  Leave out each resource or module FILE lists: one
                      address a line, lines starting with # ignored.

  -input=true         Ask on the terminal for required variables that have
                      no value.

  -json               Print the machine-readable UI: one JSON message a line.

  -lock=true          Hold the state lock. -lock=false is risky when others
                      may use the same workspace.

  -lock-timeout=0s    How long to keep trying to take the state lock.

  -no-color           Print without terminal colours.

  -parallelism=10     How many provider operations run at a time.

  -state=FILE         Use this local state file instead of the selected
                      workspace's state.

  -target=ADDRESS     Refresh only the given resource or module. May be
                      given more than once.

  -target-file=FILE   Refresh only the resources and modules FILE lists: one
                      address a line, lines starting with # ignored.

  -var 'NAME=VALUE'   Set a root module input variable.

  -var-file=FILE      Read input variable values from FILE.
",
};

pub(crate) const IMPORT: Spec = Spec {
    bools: &["input", "lock", "allow-missing-config"],
    values: &[
        "var",
        "var-file",
        "state",
        "lock-timeout",
        "parallelism",
        "config",
        "provider",
    ],
    help: "Usage: ferro [global options] import [options] ADDRESS ID

  Brings an existing object under ferro's management: asks the provider to
  read the object with the given ID and records it in the state at ADDRESS.

  ADDRESS names a resource instance declared in the configuration, such as
  aws_instance.web, aws_instance.web[1] or module.net.aws_vpc.main. What ID
  means depends on the resource type; the provider's documentation says.

  The configuration is not written for you: declare the resource first.

Options:

  -allow-missing-config   Accepted for compatibility; ferro still needs the
                          resource block in the configuration.

  -config=DIR             Accepted for compatibility; ferro reads the
                          configuration from the working directory (use the
                          global -chdir option to point elsewhere).

  -input=true             Accepted for compatibility; import does not ask
                          for variables.

  -lock=true              Hold the state lock. -lock=false is risky when
                          others may use the same workspace.

  -lock-timeout=0s        How long to keep trying to take the state lock.

  -no-color               Print without terminal colours.

  -parallelism=10         Accepted for compatibility; one object is imported
                          at a time.

  -provider=PROVIDER      Accepted for compatibility; the provider
                          configuration is the one the resource uses.

  -state=FILE             Use this local state file instead of the selected
                          workspace's state.

  -var 'NAME=VALUE'       Set a root module input variable.

  -var-file=FILE          Read input variable values from FILE.
",
};

pub(crate) const CONSOLE: Spec = Spec {
    bools: &[],
    values: &["var", "var-file", "state"],
    help: "Usage: ferro [global options] console [options]

  Opens a prompt where expressions are evaluated against the configuration
  and the state, as they would be in the configuration: try functions,
  look at variables, locals, resources and outputs.

  Standard input that is not a terminal is read as expressions, one a line;
  only the last result is printed.

Options:

  -state=FILE         Read this local state file instead of the selected
                      workspace's state.

  -var 'NAME=VALUE'   Set a root module input variable.

  -var-file=FILE      Read input variable values from FILE.
",
};

pub(crate) const TEST: Spec = Spec {
    bools: &["json", "verbose"],
    values: &[
        "filter",
        "test-directory",
        "var",
        "var-file",
        "junit-xml",
        "parallelism",
    ],
    help: "Usage: ferro [global options] test [options]

  Runs the module's tests: the test files (*.tftest.hcl, *.tftest.json and
  OpenTofu's *.tofutest.hcl) in the working directory and in the test
  directory. Each run block plans or applies the module (or a setup module)
  and checks its assertions; everything a file created is destroyed when the
  file ends. Nothing is written to the working directory's state.

Options:

  -filter=FILE          Run only this test file (a path such as
                        tests/main.tftest.hcl); may be repeated.

  -json                 Print the results as Terraform's machine-readable
                        JSON stream.

  -junit-xml=FILE       Also write the results as a JUnit XML report.

  -no-color             Print without terminal colours.

  -parallelism=N        Apply at most N changes at once in each run
                        (default 10).

  -test-directory=DIR   The directory of test files besides the working
                        directory (default \"tests\").

  -var 'NAME=VALUE'     Set a variable for every run; may be repeated.

  -var-file=FILE        Read variable values from FILE; may be repeated.

  -verbose              Print the plan or the state of every run block.
",
};

variables {
  label = "file"
}

# The first run's provider sees the file's variables.
provider "ferrotest" {
  prefix = "${var.label}-"
}

# Configured from an earlier run's output (Terraform 1.7+).
provider "ferrotest" {
  alias = "after"
  prefix = "${run.setup.value}-${var.label}-"
}

run "setup" {
  variables {
    value = "made-by-setup"
  }
}

run "uses_setup" {
  providers = {
    ferrotest = ferrotest.after
  }
  assert {
    condition     = startswith(output.computed, "made-by-setup-file-")
    error_message = "The provider was not configured from run.setup: ${output.computed}"
  }
}

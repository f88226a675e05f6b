# Terraform 1.13: a reference in an assertion to a value given from outside without a
# definition warns once per run, at its last reference; the assertions see the variables the
# module does not declare: the run's, the file's and those given from outside.
variables {
  file_only = "file"
}

run "asserts" {
  variables {
    input    = "in"
    run_only = "run"
  }

  assert {
    condition     = var.ext == "hello" && var.file_only == "file" && var.run_only == "run"
    error_message = "asserts: ${var.ext}"
  }
}

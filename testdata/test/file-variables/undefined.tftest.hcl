# Terraform 1.13: a -var value a test file refers to without a variable block for it still
# works, with a warning that this is deprecated.
variables {
  n = length(var.ext)
}

run "undefined" {
  variables {
    input = var.ext
  }

  assert {
    condition     = output.out == "hello-5"
    error_message = "undefined: ${output.out}"
  }
}

# Terraform 1.13: a file of the test directory also sees that directory's variable files, over
# -var; they reach the module's variables too.
variable "from_file" {
  type = string
}

run "dir" {
  variables {
    n = 7
  }

  assert {
    condition     = output.out == "${var.from_file}-7"
    error_message = "dir: ${output.out}"
  }
}

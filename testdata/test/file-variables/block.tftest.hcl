# Terraform 1.13: a variable block's value reaches the module's variable of its name, under
# the run's variables; a -var value is read as the block's type says.
variable "input" {
  default = "from-block"
}

variable "n" {
  type    = string
  default = "5"
}

run "from_block" {
  command = plan

  assert {
    condition     = output.out == "from-block-5"
    error_message = "from_block: ${output.out}"
  }
}

run "from_run" {
  command = plan

  variables {
    input = "from-run"
  }

  assert {
    condition     = output.out == "from-run-5"
    error_message = "from_run: ${output.out}"
  }
}

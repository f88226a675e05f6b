# Terraform 1.13: values from TF_VAR_, the variable files and -var-file reach the test file's
# variable blocks, read as their types say, and var.NAME of a value it does not declare.
variable "from_env" {
  type = list(number)
}

variable "from_file" {
  type = string
}

run "external" {
  variables {
    input = "${var.from_file}-${var.undeclared}"
    n     = var.from_env[0] + var.from_env[1]
  }

  assert {
    condition     = output.out == "f-u-3"
    error_message = "external: ${output.out}"
  }
}

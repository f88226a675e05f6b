# Terraform 1.13: a variable block gives an external variable its type; a -var value is read
# as that type says (literally for a string) and converted to it, else the default is.
variable "ext" {
  type = string
}

variable "counts" {
  type    = list(number)
  default = ["1", "2"]
}

run "typed" {
  variables {
    input = var.ext
    n     = var.counts[0] + var.counts[1]
  }

  assert {
    condition     = output.out == "1+2-3"
    error_message = "typed: ${output.out}"
  }
}

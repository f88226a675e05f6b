terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "limit" {
  default = 3
}

resource "terraform_data" "a" {
  input = "hello"
}

check "known_at_plan" {
  assert {
    condition     = var.limit < 2
    error_message = "The limit is ${var.limit}, at least 2."
  }
  assert {
    condition     = var.limit > 0
    error_message = "never shown"
  }
}

check "known_after_apply" {
  assert {
    condition     = terraform_data.a.output == "bye"
    error_message = "The output is ${terraform_data.a.output}."
  }
}

check "with_data" {
  data "terraform_remote_state" "missing" {
    backend   = "local"
    workspace = "nope"
  }

  assert {
    condition     = data.terraform_remote_state.missing.outputs != null
    error_message = "no outputs"
  }
}

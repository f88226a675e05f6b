terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "fail" {
  default = true
}

resource "terraform_data" "good" {
}

resource "ferrotest_thing" "bad" {
  value      = "v"
  fail_apply = var.fail ? "quota exceeded" : null
}

resource "terraform_data" "after_bad" {
  triggers_replace = ferrotest_thing.bad.id
}

output "good" {
  value = terraform_data.good.id != ""
}

output "bad" {
  value = ferrotest_thing.bad.id != ""
}

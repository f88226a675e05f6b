terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "on" {
  type    = bool
  default = true
}

resource "ferrotest_thing" "a" {
  value = "a"
  lifecycle {
    enabled = var.on
  }
}

resource "ferrotest_thing" "b" {
  value = ferrotest_thing.a == null ? "a is disabled" : "a is ${ferrotest_thing.a.value}"
}

module "m" {
  source = "./m"
  lifecycle {
    enabled = var.on
  }
}

output "a_id_known" {
  value = ferrotest_thing.a != null
}

output "module" {
  value = module.m == null ? "disabled" : module.m.v
}

data "null_data_source" "d" {
  inputs = {
    a = "b"
  }
  lifecycle {
    enabled = var.on
  }
}

output "data_read" {
  value = data.null_data_source.d == null ? "not read" : data.null_data_source.d.outputs["a"]
}

terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "size" {
  default = "small"
}

locals {
  label = "native"
}

resource "ferrotest_blocks" "native" {
  name = "native"
  rule {
    port = 1
  }
  rule {
    port = 2
  }
  limit {
    n = 1
  }
}

output "summary" {
  value = "${local.label}/${var.size}"
}

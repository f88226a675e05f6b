terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "ports" {
  type    = list(number)
  default = [1, 2, 3]
}

# `rule` takes 1 to 2 blocks, counted after `dynamic` blocks are expanded; with a for_each
# that is known only when planning, at plan time.
resource "ferrotest_blocks" "too_many" {
  dynamic "rule" {
    for_each = var.ports
    content {
      port = rule.value
    }
  }
}

terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "sizes" {
  default = { a = 1 }
}

resource "ferrotest_blocks" "b" {
  rule {
    port = 1
  }
  limit {
    n = 2
  }
  dynamic "slot" {
    for_each = var.sizes
    labels   = [slot.key]
    content {
      size = slot.value
    }
  }
}

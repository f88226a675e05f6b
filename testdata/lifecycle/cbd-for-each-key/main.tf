terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "gens" {
  type    = map(string)
  default = { a = "1", b = "1", c = "1" }
}

resource "ferrotest_thing" "t" {
  for_each = var.gens
  value    = "v-${each.key}"
  replace  = each.value

  lifecycle {
    create_before_destroy = true
  }
}

output "ids" {
  value = { for k, v in ferrotest_thing.t : k => v.computed }
}

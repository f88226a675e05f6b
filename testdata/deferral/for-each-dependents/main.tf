terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "base" {
  value = "one"
}

resource "ferrotest_thing" "each" {
  for_each = toset([ferrotest_thing.base.computed, "fixed"])
  value    = each.key
}

# Depends on the deferred resource: deferred too, and what depends on it in turn.
resource "ferrotest_thing" "next" {
  value = join(",", [for t in ferrotest_thing.each : t.value])
}

resource "ferrotest_thing" "last" {
  value = ferrotest_thing.next.computed
}

# Does not depend on it: planned.
resource "ferrotest_thing" "other" {
  value = ferrotest_thing.base.computed
}

output "values" {
  value = [for t in ferrotest_thing.each : t.value]
}

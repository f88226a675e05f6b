terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "base" {
  value = "a-b"
}

# How many is known only once base is applied: its computed value is "computed-a-b".
resource "ferrotest_thing" "many" {
  count = length(split("-", ferrotest_thing.base.computed))
  value = "many-${count.index}"
}

resource "ferrotest_thing" "free" {
  value = "free"
}

output "how_many" {
  value = length(ferrotest_thing.many)
}

output "base" {
  value = ferrotest_thing.base.value
}

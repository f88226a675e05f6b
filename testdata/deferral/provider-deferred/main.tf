terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "reason" {
  default = "absent_prereq"
}

# The test provider answers "deferred" for a value of defer:REASON when deferral is allowed.
resource "ferrotest_thing" "waits" {
  value = "defer:${var.reason}"
}

resource "ferrotest_thing" "needs_it" {
  value = ferrotest_thing.waits.computed
}

resource "ferrotest_thing" "free" {
  value = "free"
}

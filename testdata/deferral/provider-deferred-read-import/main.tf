terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "value" {
  default = "v1"
}

# The test provider answers "deferred" to ReadResource when the object's drift is
# defer:REASON, and to ImportResourceState for an id defer:REASON (when deferral is allowed).
resource "ferrotest_thing" "read" {
  value = var.value
  drift = "defer:absent_prereq"
}

resource "ferrotest_thing" "after_read" {
  value = "after ${ferrotest_thing.read.value}"
}

# ferrotest_thing declares no resource identity: it is imported by "id" only.
import {
  to = ferrotest_thing.t
  identity = {
    id = "t-1"
  }
}

resource "ferrotest_thing" "t" {}

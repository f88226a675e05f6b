terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_rack" "too_few" {
  door { color = "red" }
}

resource "ferrotest_rack" "too_many" {
  door { color = "red" }
  shelf { label = "1" }
  shelf { label = "2" }
  shelf {
    label = "3"
  }
}

resource "ferrotest_rack" "one_line" {
  door { color = "red" }
  shelf { label = "1" }
  shelf { label = "2" }
  shelf { label = "3" }
}

resource "ferrotest_rack" "no_door" {
  shelf {}
}

resource "ferrotest_rack" "two_doors" {
  shelf {}
  door { color = "red" }
  door { color = "blue" }
}

resource "ferrotest_rack" "labels" {
  door "front" { color = "red" }
  shelf {}
  tag "a" {
    name = "x"
  }
}

resource "ferrotest_rack" "tags" {
  door {}
  shelf {}
  tag { name = "a" }
  tag { name = "b" }
}

resource "ferrotest_rack" "ok" {
  door {}
  shelf { label = "1" }
  tag { name = "a" }
}

terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

# A dynamic block with an error in its own body generates nothing (so `rule` has too few).
resource "ferrotest_blocks" "a" {
  dynamic "rule" {
    content {
      port = 1
    }
  }
}
resource "ferrotest_blocks" "b" {
  dynamic "rule" {
    for_each = [1]
  }
}
resource "ferrotest_blocks" "c" {
  dynamic "rule" {
    for_each = [1]
    content {
      port = 1
    }
    content {
      port = 2
    }
  }
}
resource "ferrotest_blocks" "d" {
  dynamic "rule" {
    for_each = [1]
    iterator = a.b
    foo      = 1
    content {
      port = 1
    }
  }
}
# Labels: required for map nesting, refused otherwise, as many as the type takes.
resource "ferrotest_blocks" "e" {
  rule {
    port = 1
  }
  dynamic "slot" {
    for_each = [1]
    content {}
  }
  dynamic "slot" {
    for_each = [1]
    labels   = []
    content {}
  }
  dynamic "slot" {
    for_each = [1]
    labels   = ["a", "b"]
    content {}
  }
  dynamic "limit" {
    for_each = [1]
    labels   = ["a"]
    content {}
  }
  slot {}
}

# File-level variables that refer to each other in a circle fail.
variables {
  a = var.b
  b = "${var.a}!"
}

run "needs_cycle" {
  variables {
    input = var.a
  }
}

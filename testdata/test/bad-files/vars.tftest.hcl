run "unavailable_variable" {
  command = plan

  variables {
    x = var.not_given
  }
}

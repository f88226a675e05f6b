run "plan" {
  command = plan

  variables {
    name = "file"
  }
}

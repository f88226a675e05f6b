run "x" {
  command = plan

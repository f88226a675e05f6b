# Terraform 1.13: a variable block without a default needs a value; without one the file
# fails, the runs that need it are skipped, and so are the runs after them.
variable "need" {
  type = string
}

variables {
  input = "ok"
}

run "first" {
}

run "needs" {
  variables {
    input = var.need
  }
}

run "after" {
}

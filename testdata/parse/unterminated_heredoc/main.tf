locals {
  a = <<EOT
hello
}

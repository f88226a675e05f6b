locals {
  a = 1
}
locals {
  b = <<EOT
x
EOT
resource "null_resource" {}
variable {}
output "a" "b" {
  value = 1
}
locals "x" {
  a = 1
}

resource "random_string" "s" {
  length  = 12
  special = false
}

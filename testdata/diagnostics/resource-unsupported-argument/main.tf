resource "null_resource" "a" {
  nope = 1
}

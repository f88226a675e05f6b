resource "null_resource" "a" {
  triggers = {}
  triggers = {}
}

resource "null_resource" "a" {
  count    = 1
  for_each = {}
}

resource "null_resource" "a" {
  count = "abc"
}

resource "null_resource" "a" {
  triggers = {
    x = null_resource.a.id
  }
}

output "a" {
  value = var.nope
}
output "b" {
  value = local.nope
}
output "c" {
  value = null_resource.nope.id
}

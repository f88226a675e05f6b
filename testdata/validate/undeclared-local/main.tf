output "x" {
  value = local.missing
}

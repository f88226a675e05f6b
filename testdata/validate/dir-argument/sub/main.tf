output "bad" {
  value = local.missing
}

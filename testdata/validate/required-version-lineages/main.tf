output "ok" {
  value = true
}

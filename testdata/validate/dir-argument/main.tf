output "ok" {
  value = 1
}

output "o" {
  value     = 1
  sensitive = "true"
}

output "where" {
  value = "in sub"
}

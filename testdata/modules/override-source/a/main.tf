output "from" {
  value = "a"
}

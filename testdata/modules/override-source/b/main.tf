output "from" {
  value = "b"
}

output "a" {
  description = "x"
}

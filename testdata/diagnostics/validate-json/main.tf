output "x" {
  value = 1
}
output "x" {
  value = 2
}

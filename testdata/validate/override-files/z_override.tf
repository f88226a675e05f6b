output "size" {
  value = "${var.size}!"
}

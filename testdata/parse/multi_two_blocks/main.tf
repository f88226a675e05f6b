locals {
  a = [1 2]
}

output "x" {
  value = { k = }
}

provider "null" {
  version = "~> 2.1"
}

output "a" {
  value = "x"
}

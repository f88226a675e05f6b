resource "terraform_data" "a" {
  input = "a"
}

output "nothing" {
  value = null
}

output "something" {
  value = terraform_data.a.output
}

resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

output "b" {
  value = terraform_data.b.output
}

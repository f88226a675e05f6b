resource "terraform_data" "a" {
  input = "1"
}

resource "terraform_data" "b" {
  input = terraform_data.a.id
}

resource "terraform_data" "c" {
  input = "2"
}

output "b" {
  value = terraform_data.b.id != ""
}

output "constant" {
  value = "kept out of targeted plans"
}

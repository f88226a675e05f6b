resource "terraform_data" "n" {
  count = 4
  input = "n${count.index}"
}

output "inputs" {
  value = terraform_data.n[*].input
}

resource "terraform_data" "x" {
  depends_on = ["terraform_data.y"]
}

resource "terraform_data" "y" {}

output "z" {
  value = var.nope
}

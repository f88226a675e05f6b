resource "terraform_data" "a" {
  input = <<-EOT
    line one
    line two
  EOT
}

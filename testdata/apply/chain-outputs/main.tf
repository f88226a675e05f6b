resource "terraform_data" "a" {
  input = "start"
}

resource "terraform_data" "b" {
  input = "${terraform_data.a.output}-middle"
}

resource "terraform_data" "c" {
  input = "${terraform_data.b.output}-end"
}

output "final" {
  value = terraform_data.c.output
}

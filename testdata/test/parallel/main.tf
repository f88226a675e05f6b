variable "name" {
  type = string
}

resource "time_sleep" "wait" {
  create_duration = "1s"
}

resource "terraform_data" "a" {
  input      = var.name
  depends_on = [time_sleep.wait]
}

output "name" {
  value = terraform_data.a.output
}

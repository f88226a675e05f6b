# One variable per boundary between two sources of values, in Terraform's precedence (later
# wins): default < TF_VAR_name < terraform.tfvars < terraform.tfvars.json < *.auto.tfvars and
# *.auto.tfvars.json in name order < -var and -var-file in command-line order.
variable "a" { default = "default" }
variable "b" { default = "default" }
variable "c" { default = "default" }
variable "d" { default = "default" }
variable "e" { default = "default" }
variable "f" { default = "default" }
variable "g" { default = "default" }
variable "h" { default = "default" }
variable "i" { default = "default" }
variable "j" { default = "default" }
output "all" { value = join(" ", [var.a, var.b, var.c, var.d, var.e, var.f, var.g, var.h, var.i, var.j]) }

terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

locals {
  vars = {
    string = "hello"
    number = 5
    bool   = true
    list   = ["bleep", "bloop"]
    map    = { one = 1 }
    object = { one = 1, "two words" = "${"$"}{x}" }
    null   = null
  }
}

output "tfvars" {
  value = provider::terraform::encode_tfvars(local.vars)
}

output "decoded" {
  value = provider::terraform::decode_tfvars("string = \"hello\"\nnumber = 2\nlist = [1, true]\n")
}

output "round_trip" {
  value = provider::terraform::decode_tfvars(provider::terraform::encode_tfvars(local.vars)).object
}

output "expr_object" {
  value = provider::terraform::encode_expr({ number = 5, string = "..." })
}

output "expr_list" {
  value = provider::terraform::encode_expr(toset([55, 1, 20, 5]))
}

output "expr_string" {
  value = provider::terraform::encode_expr("hel%%{lo $${x}\n")
}

output "expr_unknown" {
  value = provider::terraform::encode_expr(terraform_data.x.id)
}

resource "terraform_data" "x" {
  input = provider::terraform::encode_expr(["a"])
}

terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

output "not_object" {
  value = provider::terraform::encode_tfvars("nope")
}

output "bad_name" {
  value = provider::terraform::encode_tfvars({ "not valid identifier" = "!" })
}

output "bad_syntax" {
  value = provider::terraform::decode_tfvars("foo = not valid syntax")
}

output "variables" {
  value = provider::terraform::decode_tfvars("foo = var.whatever")
}

output "function_call" {
  value = provider::terraform::decode_tfvars("foo = whatever()")
}

output "block" {
  value = provider::terraform::decode_tfvars("foo {\n}\n")
}

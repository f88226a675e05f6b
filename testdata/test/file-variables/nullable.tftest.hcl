# A variable block's nullable = false: a null -var value gives way to the default; a nullable
# variable stays null.
variable "obj" {
  type     = object({ a = number })
  default  = { a = 7 }
  nullable = false
}

variable "maybe" {
  type    = object({ a = number })
  default = { a = 7 }
}

run "non_nullable" {
  variables {
    input = "x"
    n     = var.obj.a
  }

  assert {
    condition     = output.out == "x-7"
    error_message = "non_nullable: ${output.out}"
  }
}

run "nullable" {
  variables {
    input = var.maybe == null ? "null" : "set"
  }

  assert {
    condition     = output.out == "null-0"
    error_message = "nullable: ${output.out}"
  }
}

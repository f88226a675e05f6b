terraform {
  required_providers {
    a_b  = { source = "hashicorp/null" }
    ab-c = { source = "hashicorp/Null_x" }
    c    = { source = "a//b" }
  }
}

terraform {
  required_providers {
    Null = {
      source = "hashicorp/null"
    }
  }
}

terraform {
  required_providers {
    null = {
      source = "hashicorp/terraform-provider-null"
    }
  }
}

variable "root_size" {
  type     = string
  default  = "root-default"
  nullable = false
}

variable "required" {
  type     = string
  nullable = false
}

module "child" {
  source = "./child"
  size   = null
  label  = null
}

output "child_size" {
  value = module.child.size
}

output "child_label_is_null" {
  value = module.child.label_is_null
}

output "root_size" {
  value = var.root_size
}

output "required" {
  value = var.required
}

variable "env" {
  type    = string
  default = "dev"
}
variable "count_nodes" {
  type    = number
  default = 1
  validation {
    condition     = var.env != "prod" || var.count_nodes >= 3
    error_message = "Production needs 3 nodes, not ${var.count_nodes}."
  }
}
module "c" {
  source = "./c"
  mode   = var.env
  size   = var.count_nodes
  other  = 2
}
output "o" { value = module.c.size }

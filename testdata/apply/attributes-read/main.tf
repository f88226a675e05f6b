resource "terraform_data" "r" {
  count = 2
  input = "v${count.index}"
}

# The module's expressions read `id`, `input` and `output` of terraform_data.r (in outputs, a
# module argument and a check): plan and apply keep only those of its objects, and every
# place that reads one sees it.
module "m" {
  source = "./m"
  value  = terraform_data.r[1].output
}

output "count" {
  value = length(terraform_data.r[*].id)
}

output "first" {
  value = terraform_data.r[0].input
}

output "m" {
  value = module.m.value
}

check "first_output" {
  assert {
    condition     = terraform_data.r[0].output == "v0"
    error_message = "terraform_data.r[0].output is not v0."
  }
}

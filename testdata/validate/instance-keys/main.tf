resource "terraform_data" "single" {
  input = 1
}

resource "terraform_data" "counted" {
  count = 2
  input = count.index
}

resource "terraform_data" "keyed" {
  for_each = toset(["a", "b"])
  input    = each.key
}

output "wrong" {
  value = [terraform_data.single[0].output, terraform_data.counted.output, terraform_data.keyed.id]
}

output "right" {
  value = [
    terraform_data.single.output,
    terraform_data.counted[0].output,
    terraform_data.counted[*].id,
    terraform_data.keyed["a"].id,
    [for k, v in terraform_data.keyed : v.id],
  ]
}

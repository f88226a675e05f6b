# Ids known only after apply, gathered into a set: each stays apart (they may or may not
# coincide), so the set's length is unknown until apply, unless it holds one element.
resource "terraform_data" "a" {
  count = 2
  input = count.index
}

output "distinct_ids" {
  value = length(toset(terraform_data.a[*].id))
}

output "one_id" {
  value = length(toset([terraform_data.a[0].id]))
}

output "known" {
  value = length(toset(["x", "x", "y"]))
}

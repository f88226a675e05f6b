variable "inputs" {
  type    = map(string)
  default = { x = "1", y = "1" }
}

resource "terraform_data" "src" {
  for_each = var.inputs
  input    = each.value
}

resource "terraform_data" "dst" {
  for_each = var.inputs
  input    = "dst-${each.key}"

  lifecycle {
    replace_triggered_by = [terraform_data.src[each.key].output]
  }
}

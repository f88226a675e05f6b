resource "terraform_data" "negative" {
  count = -1
}

resource "terraform_data" "fraction" {
  count = 1.5
}

resource "terraform_data" "list" {
  for_each = ["a"]
}

resource "terraform_data" "numbers" {
  for_each = toset([1])
}

module "counted" {
  source = "./m"
  count  = "x"
}

module "each" {
  source   = "./m"
  for_each = ["a"]
}

resource "terraform_data" "null_count" {
  count = null
}

variable "maybe" {
  default = null
}

# Unknown to validate (a variable), so only plan can tell it is null.
resource "terraform_data" "variable_count" {
  count = var.maybe
}

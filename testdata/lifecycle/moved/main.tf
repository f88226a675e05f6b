resource "terraform_data" "a" {
  input = "one"
}

resource "terraform_data" "n" {
  count = 2
  input = count.index
}

module "old" {
  source = "./m"
}

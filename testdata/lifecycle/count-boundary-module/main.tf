module "m" {
  source   = "./m"
  for_each = toset(["k"])
}

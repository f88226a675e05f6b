module "outer" {
  source   = "./outer"
  for_each = toset(["a", "b"])
}

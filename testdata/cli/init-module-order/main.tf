module "z" {
  source = "./k"
}

module "a" {
  source = "./m"
}

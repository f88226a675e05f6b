module "y" {
  source = "./n"
}

module "b" {
  source = "./n"
}

module "counted" {
  source = "./counted"
  count  = 1
}

module "over" {
  source = "./over"
  providers = {
    null = null
  }
}

module "aliased" {
  source = "./aliased"
}

module "proxy" {
  source = "./proxy"
}

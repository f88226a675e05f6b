module "inner" {
  source = "../m2"
}

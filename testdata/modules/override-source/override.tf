module "m" {
  source = "./b"
}

module "m" {
  source = "./m"
  nope   = 2
}

module "m" {
  source  = "./m"
  version = "1.0.0"
}

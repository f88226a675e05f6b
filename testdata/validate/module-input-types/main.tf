module "m" {
  source = "./m"
  n      = "abc"
  o      = { b = 1 }
  fine   = ["x", 1]
}

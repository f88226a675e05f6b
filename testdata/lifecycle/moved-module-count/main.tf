module "old" {
  source = "./mod"
  count  = 2
  name   = "n${count.index}"
}

module "again" {
  source = "../loop"
}

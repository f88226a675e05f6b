module "child" {
  source = "./child"
  in     = terraform_data.a.output
}

resource "terraform_data" "a" {
  input = module.child.out
}

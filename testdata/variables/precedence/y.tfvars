i = "y.tfvars"

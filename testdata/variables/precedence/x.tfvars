g = "x.tfvars"
h = "x.tfvars"
i = "x.tfvars"

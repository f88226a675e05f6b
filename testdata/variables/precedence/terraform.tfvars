c = "tfvars"
d = "tfvars"

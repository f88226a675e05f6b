e = "a.auto.tfvars"
f = "a.auto.tfvars"
j = "a.auto.tfvars"

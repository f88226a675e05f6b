a = "from-tfvars"
b = "overridden"

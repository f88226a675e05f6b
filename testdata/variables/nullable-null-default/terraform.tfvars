root_size = null
required  = "given"

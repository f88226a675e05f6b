name = "from-file"

b = "from-auto"

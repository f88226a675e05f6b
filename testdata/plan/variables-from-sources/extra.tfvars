c = "from-var-file"

l = ["a", upper("b"), c.d]

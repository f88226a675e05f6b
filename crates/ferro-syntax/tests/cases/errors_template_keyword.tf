a = "%{ bogus }"
b = "x%{ if true }a%{ els }b%{ endif }"
c = 1

b = "open
c = 1 +

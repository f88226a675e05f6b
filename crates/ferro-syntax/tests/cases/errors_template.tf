a = "%{ endif }"
b = "%{ if x }yes"
c = "bad \q escape"
d = 1 /* unterminated

a = 
b = 1 2
c = [1, , 2]
"quoted" = 3
d = @
ok = "still parsed"
res "x" {
  e = (1 +
  f = 2
}
g = "unterminated
h = 3
}
last = 4

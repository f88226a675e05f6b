a = [for v in [[1, 2], [3]] : v...]
b = [for v [1] : v]
c = [for a, 2 in [1] : a]
d = [for v in [1] : v => v]
e = {for v in [1] : v => v foo}
f = {a = 1 b = 2}
g = {a 1}
h = [for v in [1] : v]

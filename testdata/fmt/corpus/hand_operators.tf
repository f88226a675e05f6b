a = 1+2*3/4%5-6
b = !x&&y||z
c = a==b!=c<d<=e>f>=g
d = -1
e = - x
f = x - -1
g = [-1, - 2, (-3)]
h = a ? -b : - c
i = !!x
j = x-y
k = 1 -1

a = 1
bbbb = 2
cc = 3

d = 4
eeeeeeee = 5
block {
}
f = 6
gggg = 7

a = "${var.x}"
b = "${ var.x }"
c = "${var.x}${var.y}"
d = "x${var.x}"
e = "${
  var.x
}"
f = "${var.cond ?
  1 : 2}"
g = "${(var.x)}"
h = "${func("${a}")}"
i = "${~var.x~}"
block {
  j = "${var.j}"
}

naïve_ident = föö-bar_1
with-dash = a-b - c
dyn "x" {
  for_each = var.list
  content {
    v = each.value
  }
}
legacy = a.*.b.0
splat_idx = a[*].b[0].c
k = "${x}"
strip = "%{~ if a ~} x %{~ else ~} y %{~ endif ~}"
list = [
  1, # comment in list
  2, // another
  /* block */ 3,
]
obj = {
  "quoted key" = 1
  ident_key : 2
  (var.dyn) = 3
  4 = "number key"
}
cond = a ? [for x in y : x] : {for k, v in m : k => v if v}
nested = f(g(h(1)), [1, [2, [3]]])
paren_span = (((1)))
unary = !!true
neg = - - 1
h = <<-EOT
  a
    ${b}
  c
  EOT
h_crlf = "x"
empty_heredoc = <<EOT
EOT
after = 1

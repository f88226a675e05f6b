value = "${~ false  ~}%{~ if each["nameé"].*.my-dashed.b}x%{  else}y%{~  endif }"
_under = count[*][each.key ].in_x
nested bare	"a\"q"{	in_x =null }

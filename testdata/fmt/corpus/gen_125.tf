resource ""  x-y	/* hdr */{ }
name =3.14
#
x1 =[for i ,v in [1, 2]:({for_each = true, "with space" : [for v	in [1, 2]:   false] } )  ] #

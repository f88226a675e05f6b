a=	true
x1 =<<DOC
	${ a + b }
  ${ a + b }
DOC
count = 	 { 
value=   ( "${count.name }")	// c
(data.*.a.é_accent)=( lookup( null , ))==( [	null ,   ] ) // c
    b = lookup( {
	(count[ each.key][*])= "${self.*["name"].nameé}"
    "quoted" = "\u00e9" // c

} , aws_instance.in_x[*]   ) # c
    "quoted" = {for	i ,v in aws_instance: !""  =>   var[ each.key ][*].depends_on.value },
}

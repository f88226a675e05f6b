 in_x= <<END
END

name	= "${ aws_instance.1 }"	/* trailing */
count= data.nameé.in_x [ 	 0] 	 ?(null) : null
x169 =   {   for k, v  in	[1, 2]:"q\"uote${42	~}"+ 100=>   "${( 007 /* c4 */ )>(true ) }"...} #
my-dashed61   = !""
é_accent= 	 true
for_each= { for i ,v  in module.b.count: 	 ({	nameé= 	 each.* [ /* c4 */ count.index] [	each.key],"k"= 3.14,"k" =(true
)}) =>self}

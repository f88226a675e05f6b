é_accent = ("") /* c6 */ >( var[*].0.my-dashed )
output aws_s3_bucket{
}
	for_each =! 1
 b=" x ${ ("$${not}"% "")}"  # longer trailing comment
name 	 = <<END
END
tags="q\"uoteünï" + 	 (each.b )	/* trailing */

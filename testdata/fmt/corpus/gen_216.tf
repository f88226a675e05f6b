	é_accent= {
    long_attribute_name 	 = "${	each.a ["k"]   }"
}
name = 	 <<DOC
	text
DOC

x1 = "${	var [ 0]["depends_on"]["depends_on"] }"	/* trailing */
for_each 	 =	path.a +("${count[ true ][*][ count.index] }")

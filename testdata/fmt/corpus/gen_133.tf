nameé= [ 	 for i ,v	in	aws_instance.ami.name._under:( [for k, v in {a = 1}  : path   [	"k" /* c5 */ ]["count"][*].for_each])	if aws_instance["my-dashed"]  ]	#
 module  "e\u00e9"{ }

nameé   =[ for i ,v in	{a = 1}   :true==( path.tags[ "k" /* c5 */ ].value  ) ] #
	a1=!merge(self... )
_under =   [for i ,v in	{a = 1} :aws_instance.b ]
my-dashed=	{  }	#
é_accent  =data
output "ünï"{  }
ami= data
  _under22 	 = "${each [(self[count.index][ 	 0]) ]["x1"]["long_attribute_name"]}"

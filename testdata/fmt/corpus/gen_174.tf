ami=each.long_attribute_name.long_attribute_name
_under =jsonencode(jsonencode({for  k, v in	[1, 2]: ""  =>(	true) if " x "}   , data.1  -"back\\slashtab\there%%{not}"   ),  {   }   )  # longer trailing comment




depends_on =	[for i ,v	in [1, 2]:var.12[each.key ] ]
 count=var // trailing
	variable x-y  {
  default = module+""
}
long_attribute_name=aws_instance.x1[*].1

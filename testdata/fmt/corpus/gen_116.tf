 // comment
	long_attribute_name =<<DOC
DOC
for_each =	( [ ""   ])%(  "back\\slash%%{not}${"q\"uote\U0001F600"}")
content ""	"aws_instance"  { 
}


   é_accent =1e3  #
locals "aws_instance"{
  # comment
    b =  ""
}
instance_type=var.value.12.é_accent
b=!(aws_instance._under[*].instance_type)

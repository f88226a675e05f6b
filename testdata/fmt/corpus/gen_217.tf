depends_on=true
depends_on87 = 	 "%{ for k, v in "%{  if (100)}x%{~ else ~}y%{~ endif }${~ var["long_attribute_name"]["ami"]~}[${~ (   [
  false ,
    true,
    42  ,
	1,

]) ~}"  ~}${v}%{~endfor  }%{for v in false * "#no\u00e9"  ~}${v}%{~  endfor~}a b"
lifecycle "aws_instance" {
    é_accent= var.12["_under"][ count.index   ]
 long_attribute_name=true
  locals ""  bare{
    instance_type= "${ module }" # longer trailing comment
  }
  // comment
}
nested{	


  for_each="${   local }" #
  instance_type=	<<-DOC
  with ${var.x} interp
      # not a comment
	$${esc}
  # not a comment
DOC
  name =	self
  value= !true
}
 ami =	"${ path["nameé"][*].depends_on.tags  }"  #
   my-dashed = "${	path 	 }"
b   ="${ ("${ count }")&&  "${~ ( null)	}50% %{~ if "hello"~}x%{~ else  }y%{~endif  }${~   " x \U0001F600ünï"}"~}%{  for k, v in ! (count	) }${v}%{endfor}a$b${~   false? ("a$b" ):data[*].in_x["tags"] 	 }"



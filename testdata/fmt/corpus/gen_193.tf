my-dashed= false
dynamic  "aws_instance" 	 {
  provider ""{ 
    a=<<-DOC
    text
      with ${var.x} interp
    %{ if c }yes%{ endif }
    DOC
 }
	my-dashed = <<DOC
%{ if c }yes%{ endif }
DOC
  count= "${"" 	 }ünï${~( 	 (null ) ?( false	) 	 :false  )	~}%{~ if (( ( true
))) ~}x%{~ endif ~}"
  content{
   long_attribute_name= 	 ""
  }
  instance_type = { for k,v	in {a = 1}: - (path)   =>count 	 [ "k"].long_attribute_name._under   ? format(
 ):data.b.tags.in_x... if  (   self["name"]._under[*])}
}
variable "x"  { 
	type ="list"
	}
depends_on= 	 "${ aws_instance.12[*]["tags"]}"
 name   = 	 ""
b =( - "\U0001F600" )? 100 :self[*].in_x.long_attribute_name
for_each = count.instance_type

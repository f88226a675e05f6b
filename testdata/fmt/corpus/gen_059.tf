ami= 0
value	= "${~ "${~"$${not}a b" /( false 	 )}" }%{~if "" }x%{  endif }${~"%{~for k, v in ""  ~}${v}%{endfor~}%x"   ~}%{~if max( local 	 [ data[*].value].x1 ,[
  "%x x \n" 
  ]  ,  # lc
	- (null )   )  }x%{  else~}y%{~ endif  ~}"
instance_type = "${count.long_attribute_name.*   }" # trailing
data	"x" aws_s3_bucket{   
  /* multi
   line */
   module "e\u00e9" {
    }
   é_accent  = 	 { "k"=(  " x " ) 	 >=path.value }
  tags= true
  resource	"e\u00e9" "aws_instance" {
    dynamic  "" 	 { 
      my-dashed	= local
        value = ""
      count= data["in_x"]
    }
locals { 	 
    }
  }
  }
 instance_type42 =   (	aws_instance.my-dashed.12 )

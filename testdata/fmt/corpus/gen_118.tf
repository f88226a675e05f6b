in_x =""



terraform "ünï" {
    instance_type  = max(""  )
  my-dashed =   true
  dynamic "aws_instance"{   
    x1= 3.14
  }
	}

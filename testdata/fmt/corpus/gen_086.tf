in_x   = ! ( path)
provider "aws_instance"  /* hdr */{ 
 }

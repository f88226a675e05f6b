dynamic aws_s3_bucket /* hdr */ { 
  in_x = self.*.count["name"].nameé
  resource aws_s3_bucket "aws_instance" { 
    instance_type=<<EOT
    ${ a + b }
  # not a comment
EOT
}
}
x1= 	 true<= /* c8 */ ( lookup( jsonencode( 	 
null ,)... ) )
for_each=self
instance_type= -"\n" /* trailing */

   /* multi
   line */
nested	{
  my-dashed="${ 	 count.x1.a.name}"
  provider	aws_s3_bucket {
    }

}
nameé =count   [ "${~ (false)~}" + 	 true]
name = 	 coalesce( module.depends_on  [  "k" ]+ 3.14   , 	 true 	 ,coalesce( ( /* c9 */ true ) ?( false ) :( 3.14) ,{é_accent="","k" = { } }...	) )
variable  bare{	
  description = ""
}

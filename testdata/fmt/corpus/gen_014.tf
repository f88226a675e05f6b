lifecycle { 

  variable  "web" /* hdr */ { 
    locals  x-y "aws_instance"{
      /* block */
      x1  =null  >= 	 (path	)	/* trailing */
      in_x = <<-END
      $${esc}
      {

  END
      _under=	false
    }
    dynamic  bare{ _under	=  ( 1) ==("{}${~ (true)   }${data.for_each}%{for k,v in data[*].b ~}${v}%{  endfor~}" 	 ) }
    instance_type  =	"${   aws_instance.b	}" # longer trailing comment
  }
  b= 	 (	merge( 	 [ true 	],
    false,[	  ]...	))==  ("${~( 100 	 )~}" ) # longer trailing comment



}

	// comment
my-dashed= [   ] /* trailing */

b = null
  in_x =[ for k,v in range(3) : var 	 %	null ]
my-dashed   =<<-EOF
EOF



for_each   = 	 "" # longer trailing comment
tags= count[ each.key].ami.é_accent /* trailing */
 dynamic aws_s3_bucket   {
  b =module 	 >=(false	)
  lifecycle   {
    #
	data	"x" "web" { 
      _under =   { 	 for i ,v in {a = 1} :( true)   =>null}
      a =   true
      ami   = " x ${ ( 	 "a b"	) ~}${true}"
    }
  }
  value= "${each.depends_on}"
}



data	"aws_instance" "x" {
  #
  a = count[*].value.b
}
nameé = <<END
%{ if c }yes%{ endif }
  {
END
long_attribute_name="${~  "back\\slashtab\there%{~ for k, v in ""%  true  }${v}%{ endfor  }${~ path.long_attribute_name[*].é_accent._under ~}"	~}"	#
x1= 	 null
depends_on = <<EOT
	%{ if c }yes%{ endif }
	with ${var.x} interp
      
EOT
ami ={ for  v  in	[1, 2]: coalesce([
  100
], )? ( /* c6 */ [   2.5E-2     ] 	 ):   ( "\n")=> data["nameé"].ami.tags... if "\U0001F600\n${! ( null   ) ~}%{ if path.value ~}x%{else  ~}y%{~ endif}"} #



in_x ="[%{  if ( { 
    "x.y" = [
	true ,
  null	# item
]
  "with space" = "${ self[0 ].*.b}"
  "with space"=[ for i ,v in	range(3) :	null	if 0 ]
	(data)  : concat(true  , /* bc */
	null , 	 
false )  # c
})~}x%{endif  ~}a b{}"
variable "ünï"{ 	 
  default =(" x \U0001F600" )!=  "%{  for k, v in "" ~}${v}%{~endfor  ~}${~(  null /* c1 */ ) ~}${~ "a$b"  }"
  description = "\u00e9"
	}

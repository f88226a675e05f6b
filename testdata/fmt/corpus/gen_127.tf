


   é_accent = format(
    {
	"quoted" =1  /* c */
} ,
)
a   ="${ module.0.name._under   ~}a$b%{  for k, v in false ~}${v}%{ endfor }"?   aws_instance.1 :   (count ) #
long_attribute_name= 	 ! (self.depends_on.long_attribute_name.12 )
ami = "${ "${  ""~}${ path.for_each.b?  "\n" : count.12 [  0  ]}$${not}${~!( null) ~}" }%{~ if ! true  }x%{ else  ~}y%{~ endif }#no"
long_attribute_name7 ="${ ( 42 )   ~}${~ (data["ami"]["x1"]? (null   )	:" x ")~}%{~for k, v in ((true))>= (module)  ~}${v}%{~ endfor ~}//no" /* trailing */
my-dashed   = (coalesce(
true   ... /* bc */
) )?("%{  if true}x%{~ else  ~}y%{  endif ~}q\"uote%{~  for k, v in aws_instance[*].in_x [count.index ]}${v}%{~ endfor~}back\\slash" ):( data.*.name.instance_type ) // trailing
count= {
value : var.1[*]["x1"]
  "x.y"	:self.my-dashed.a.*.count? "${ 	 true~}"  : /* c2 */ ( "" )	/* c */
  count   =([null  ,true, null,true   ] ) *merge(  ) /* c */
}

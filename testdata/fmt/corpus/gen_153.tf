in_x  =<<DOC
    $${esc}
      ${ a + b }
      with ${var.x} interp
DOC
my-dashed= ! "${ ( { for	i ,v	in range(3) : null	=>   false... if null } )}${"${ data.name["a"].*.count }${(false   ) ~}${ merge( /* c3 */ true )}"}%{for k, v in ("50% "   )}${v}%{~endfor~}"
  depends_on=[-true  ]
  value =	<<DOC
	  {
	  {
DOC
 é_accent48=  -(local.*.count.depends_on  )
value89=  "${~( "" +"" 	 ) ~}${ ((   false ) +	true 	 )~}${~ ( /* c9 */ { 	 } )}\u00e9"
	é_accent="\u00e9${~ "${~""}hello${~   - ""~}" ~}%{ for v in ""  ~}${v}%{endfor~}"

count= true
_under= { for k,v in {a = 1} :( true)=>false < ( [	null	, true 	 , 0    ]) }	/* trailing */
value ="${   each[  "k" ] }"
lifecycle {
  count=false
  nameé=   "${ "%{if "tab\therehello"~}x%{else~}y%{endif } x %{ for v in 42  }${v}%{ endfor ~}%{ if (null )  }x%{ endif  }" 	 }tab\there${ -data["nameé"]["count"]~}"	|| local["é_accent"] [count.index  ]
  tags =aws_instance.*.tags.value 	 %( { 
    depends_on :"${ aws_instance }",
    ami = path
})
}

in_x =  true
 depends_on=   ""+	local
/* multi
   line */
content{
   provider aws_s3_bucket{ 	 



    locals	"a-b"{ 
   for_each =( /* c5 */ "q\"uote${( true) >=  (null )   }%{ for k, v in (   null) 	 <=( null) }${v}%{endfor  }" 
  )
      _under="${module[	"k" 	 ]   }"
    }
 ami	= "${ count.instance_type}"
  }
  ingress aws_s3_bucket { 
 x1 	 ={ 
    (count): path.tags.my-dashed,
  nameé =( 	 data.12)!= ("q\"uotetab\there" )
in_x=   {"quoted"   :{}},  # c
}
	for_each=-self
  }
 ami=<<-DOC
    DOC
}

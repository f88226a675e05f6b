name= var # trailing
b= max( // lc
"%{~for v in false }${v}%{~ endfor  ~}%{for k, v in false  }${v}%{ endfor }" 	 ? ([false , true ,false ,true	])  :  (null) ,tolist())  /* trailing */
#

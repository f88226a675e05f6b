name=( "${  data}" 	 )?( ""< "%%{not}tab\there"):100
a= false
locals "web" {}

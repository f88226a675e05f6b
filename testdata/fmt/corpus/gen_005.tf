instance_type=   null /* c1 */ ? ( module.depends_on )	: coalesce(
    "${~module.*.nameé.value 	 }${   "tab\there["   }%{~  if "\U0001F600%x%%{not}" }x%{endif~}" ,42)	#
  ami= 	 ! (var[ 0])
	name=! (format() ? "[" 	 : 	 self [ "k" ]  ) /* trailing */
_under=	null

%{ if on ~}
first
${value ~}

%{ endif ~}
middle
  %{~ if on }x%{ endif }
end
%{~ if on ~}

after
%{ endif ~}

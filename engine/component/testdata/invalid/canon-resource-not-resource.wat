(component
  (type $t u32)
  (core func (canon resource.drop $t))
)

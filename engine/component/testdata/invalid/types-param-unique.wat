(component
  (type (func (param "a" u32) (param "a" u32)))
)

(component
  (type (flags))
)

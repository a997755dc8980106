(component
  (type (variant))
)

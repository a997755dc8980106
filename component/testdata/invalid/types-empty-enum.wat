(component
  (type (enum))
)

(component
  (type (tuple))
)

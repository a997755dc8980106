(component
  (type (record))
)

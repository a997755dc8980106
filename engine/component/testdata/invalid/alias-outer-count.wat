(component
  (alias outer 1 0 (type))
)

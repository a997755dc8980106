(component
  (core module $m (memory 1) (memory 1))
  (core instance (instantiate $m))
)

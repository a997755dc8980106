(component
  (export "f" (func 5))
)

(component
  (type (instance (type (resource (rep i32)))))
)

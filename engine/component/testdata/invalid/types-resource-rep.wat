(component
  (type (resource (rep i64)))
)

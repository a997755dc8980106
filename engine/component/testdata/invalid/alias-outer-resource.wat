;; A resource type aliased into a nested component.
(component
  (type $r (resource (rep i32)))
  (component
    (alias outer 1 0 (type))
  )
)

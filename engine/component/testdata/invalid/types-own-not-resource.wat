;; own of a value type.
(component
  (type $t u32)
  (type (own $t))
)

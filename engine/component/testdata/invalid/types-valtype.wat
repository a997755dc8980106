;; A list of a function type.
(component
  (type $f (func))
  (type (list $f))
)

;; An annotated name on something that is not a function.
(component
  (import "r" (type $r (sub resource)))
  (import "[static]r.i" (instance))
)

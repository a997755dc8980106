;; A nested component instantiated without one of its imports.
(component
  (component $c
    (import "f" (func))
  )
  (instance (instantiate $c))
)

;; An implements attribute must name an interface.
(component
  (import "store" (implements "not-an-interface") (instance))
)

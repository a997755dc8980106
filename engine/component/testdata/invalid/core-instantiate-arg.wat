;; A core module whose import module is not supplied.
(component
  (core module $m (import "env" "f" (func)))
  (core instance (instantiate $m))
)

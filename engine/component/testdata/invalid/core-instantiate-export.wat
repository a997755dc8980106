;; A core module importing a name the supplied bag does not export.
(component
  (core module $p (func (export "f")))
  (core instance $pi (instantiate $p))
  (alias core export $pi "f" (core func $f))
  (core instance $bag (export "f" (func $f)))
  (core module $m (import "env" "g" (func)))
  (core instance (instantiate $m (with "env" (instance $bag))))
)

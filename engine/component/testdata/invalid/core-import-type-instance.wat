;; A core function import given another instance's function of a different type.
(component
  (core module $p (func (export "f") (param i64)))
  (core instance $pi (instantiate $p))
  (core module $m (import "env" "f" (func (param i32))))
  (core instance (instantiate $m (with "env" (instance $pi))))
)
